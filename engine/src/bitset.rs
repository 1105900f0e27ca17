//! Sets of small indices packed in one integer, for the game types that
//! need them (points of a merels board, Wibold's virtues).

/// Defines a set type `$set($word)` of elements `$elem(u8)`: membership,
/// iteration in increasing order, and the set operators (`-` is and-not).
#[macro_export]
macro_rules! small_set {
    ($(#[$meta:meta])* $set:ident($word:ty) of $elem:ident, iter $iter:ident) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(transparent)]
        pub struct $set(pub $word);

        impl $set {
            pub const EMPTY: $set = $set(0);

            #[inline]
            pub const fn len(self) -> u32 {
                self.0.count_ones()
            }
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }
            #[inline]
            pub const fn contains(self, e: $elem) -> bool {
                self.0 >> e.0 & 1 != 0
            }
            #[inline]
            pub const fn with(self, e: $elem) -> $set {
                $set(self.0 | 1 << e.0)
            }
            #[inline]
            pub const fn without(self, e: $elem) -> $set {
                $set(self.0 & !(1 << e.0))
            }
            /// The lowest element, if any.
            #[inline]
            pub const fn first(self) -> Option<$elem> {
                if self.0 == 0 { None } else { Some($elem(self.0.trailing_zeros() as u8)) }
            }
            #[inline]
            pub fn iter(self) -> $iter {
                $iter(self.0)
            }
        }

        /// Iterates a set in increasing order.
        #[derive(Clone, Copy, Debug)]
        pub struct $iter($word);

        impl Iterator for $iter {
            type Item = $elem;
            #[inline]
            fn next(&mut self) -> Option<$elem> {
                if self.0 == 0 {
                    return None;
                }
                let e = self.0.trailing_zeros();
                self.0 &= self.0 - 1;
                Some($elem(e as u8))
            }
            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $iter {}

        impl IntoIterator for $set {
            type Item = $elem;
            type IntoIter = $iter;
            fn into_iter(self) -> $iter {
                self.iter()
            }
        }

        impl FromIterator<$elem> for $set {
            fn from_iter<I: IntoIterator<Item = $elem>>(iter: I) -> Self {
                iter.into_iter().fold($set::EMPTY, $set::with)
            }
        }

        impl std::ops::BitAnd for $set {
            type Output = $set;
            #[inline]
            fn bitand(self, rhs: $set) -> $set {
                $set(self.0 & rhs.0)
            }
        }
        impl std::ops::BitOr for $set {
            type Output = $set;
            #[inline]
            fn bitor(self, rhs: $set) -> $set {
                $set(self.0 | rhs.0)
            }
        }
        impl std::ops::BitXor for $set {
            type Output = $set;
            #[inline]
            fn bitxor(self, rhs: $set) -> $set {
                $set(self.0 ^ rhs.0)
            }
        }
        /// `a - b`: the elements of `a` not in `b`.
        impl std::ops::Sub for $set {
            type Output = $set;
            #[inline]
            fn sub(self, rhs: $set) -> $set {
                $set(self.0 & !rhs.0)
            }
        }
        impl std::ops::BitAndAssign for $set {
            #[inline]
            fn bitand_assign(&mut self, rhs: $set) {
                self.0 &= rhs.0;
            }
        }
        impl std::ops::BitOrAssign for $set {
            #[inline]
            fn bitor_assign(&mut self, rhs: $set) {
                self.0 |= rhs.0;
            }
        }
    };
}
