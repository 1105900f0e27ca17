//! Wibold's dice: three cubes lettered with vowels and a tetrahedron lettered
//! with consonants, letter sets, and one throw of all four.

use std::fmt;

/// The five vowels, in the order Wibold writes them on the cubes.
pub const VOWELS: &str = "AEIOU";

/// The faces of the three cubes, face `f` (1 to 6) carrying `f` vowels:
/// `AEIOU` written on and on, cube 1 starting at A, cube 2 at E, cube 3 at I.
pub const CUBE_FACES: [[&str; 6]; 3] = [
    ["A", "EI", "OUA", "EIOU", "AEIOU", "AEIOUA"],
    ["E", "IO", "UAE", "IOUA", "EIOUA", "EIOUAE"],
    ["I", "OU", "AEI", "OUAE", "IOUAE", "IOUAEI"],
];

/// The faces of the tetrahedron, four consonants each; the face it lands on
/// (hidden) counts. Q is left off, as Wibold says; J and V are not there.
pub const TETRAHEDRON: [&str; 4] = ["BCDF", "GHKL", "MNPR", "STXZ"];

/// The vowels of a word counted with repetition, `[A, E, I, O, U]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VowelCounts(pub [u8; 5]);

impl VowelCounts {
    /// The vowels of an upper-case word: the letters A E I O U, so J and V
    /// count as consonants and the U of PROUIDENTIA as a vowel.
    pub const fn of(word: &str) -> VowelCounts {
        let b = word.as_bytes();
        let mut n = [0u8; 5];
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'A' => n[0] += 1,
                b'E' => n[1] += 1,
                b'I' => n[2] += 1,
                b'O' => n[3] += 1,
                b'U' => n[4] += 1,
                _ => {}
            }
            i += 1;
        }
        VowelCounts(n)
    }

    pub const fn plus(self, other: VowelCounts) -> VowelCounts {
        let mut n = self.0;
        let mut i = 0;
        while i < 5 {
            n[i] += other.0[i];
            i += 1;
        }
        VowelCounts(n)
    }

    /// Whether these vowels include every vowel of `need`, with repetition.
    pub const fn covers(self, need: VowelCounts) -> bool {
        let mut i = 0;
        while i < 5 {
            if self.0[i] < need.0[i] {
                return false;
            }
            i += 1;
        }
        true
    }
}

/// A set of letters A to Z, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Letters(pub u32);

impl Letters {
    /// The letters of an upper-case word that are not vowels.
    pub const fn consonants_of(word: &str) -> Letters {
        let b = word.as_bytes();
        let mut bits = 0u32;
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_uppercase() && !matches!(c, b'A' | b'E' | b'I' | b'O' | b'U') {
                bits |= 1 << (c - b'A');
            }
            i += 1;
        }
        Letters(bits)
    }

    #[inline]
    pub const fn intersects(self, other: Letters) -> bool {
        self.0 & other.0 != 0
    }
}

/// One throw: the pips of cubes 1, 2 and 3 (each 1 to 6, in cube order) and
/// the face of the tetrahedron that lies on the table (0 to 3, as in
/// [`TETRAHEDRON`]). The 864 throws are equally likely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Throw {
    pub pips: [u8; 3],
    pub base: u8,
}

impl Throw {
    /// 6 × 6 × 6 × 4 throws.
    pub const COUNT: usize = 864;

    /// The throw numbered `i` (below [`Throw::COUNT`]): cube 1 varies slowest,
    /// the tetrahedron fastest.
    pub const fn from_index(i: usize) -> Throw {
        let base = (i % 4) as u8;
        let c = i / 4;
        Throw { pips: [(c / 36 % 6) as u8 + 1, (c / 6 % 6) as u8 + 1, (c % 6) as u8 + 1], base }
    }

    pub const fn index(self) -> usize {
        (((self.pips[0] as usize - 1) * 6 + self.pips[1] as usize - 1) * 6 + self.pips[2] as usize - 1) * 4
            + self.base as usize
    }

    /// The vowels on the upper faces of the cubes.
    pub const fn face(self, cube: usize) -> &'static str {
        CUBE_FACES[cube][self.pips[cube] as usize - 1]
    }

    /// All vowels showing on the three cubes, with repetition.
    pub const fn vowels(self) -> VowelCounts {
        VowelCounts::of(self.face(0)).plus(VowelCounts::of(self.face(1))).plus(VowelCounts::of(self.face(2)))
    }

    /// The consonants on the tetrahedron's bottom face.
    pub const fn consonants(self) -> Letters {
        Letters::consonants_of(TETRAHEDRON[self.base as usize])
    }
}

impl fmt::Display for Throw {
    /// `A IO AEI / MNPR`: the three cubes' faces and the tetrahedron's base.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} / {}", self.face(0), self.face(1), self.face(2), TETRAHEDRON[self.base as usize])
    }
}

/// A throw together with the face a re-cast cube would show (1 to 6). Only
/// the throw 1-1-1 that names KARITAS re-casts; for every other throw the
/// extra face is ignored, so drawing a cast uniformly among the 5184 is the
/// same as throwing and re-casting only when the rules say so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cast {
    pub throw: Throw,
    pub recast: u8,
}

impl Cast {
    /// 864 throws × 6 faces of the re-cast cube.
    pub const COUNT: usize = Throw::COUNT * 6;
    /// Cube 2 shows E in the throw of KARITAS (A, E, I): it is the cube
    /// that adds nothing, so it is the one thrown again.
    pub const RECAST_CUBE: usize = 1;

    pub const fn from_index(i: usize) -> Cast {
        Cast { throw: Throw::from_index(i / 6), recast: (i % 6) as u8 + 1 }
    }

    pub const fn index(self) -> usize {
        self.throw.index() * 6 + self.recast as usize - 1
    }

    /// The vowels of the re-cast cube's face.
    pub const fn recast_face(self) -> &'static str {
        CUBE_FACES[Cast::RECAST_CUBE][self.recast as usize - 1]
    }
}

/// The three cubes alone (the simplified game): 216 equally likely throws.
pub const CUBES_COUNT: usize = 216;

/// The pips of the cubes thrown alone, numbered like [`Throw::from_index`].
pub const fn cubes_from_index(i: usize) -> [u8; 3] {
    [(i / 36 % 6) as u8 + 1, (i / 6 % 6) as u8 + 1, (i % 6) as u8 + 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_faces_run_through_the_vowels_cyclically() {
        for (cube, faces) in CUBE_FACES.iter().enumerate() {
            let mut letters = VOWELS.chars().cycle().skip(cube);
            for (f, face) in faces.iter().enumerate() {
                let want: String = letters.by_ref().take(f + 1).collect();
                assert_eq!(*face, want, "cube {} face {}", cube + 1, f + 1);
            }
        }
    }

    #[test]
    fn every_cube_shows_a_on_four_faces() {
        for faces in CUBE_FACES {
            assert_eq!(faces.iter().filter(|f| f.contains('A')).count(), 4);
        }
    }

    #[test]
    fn the_tetrahedron_holds_sixteen_consonants_without_q_j_v() {
        let all: String = TETRAHEDRON.concat();
        assert_eq!(all.len(), 16);
        let set = Letters::consonants_of(&all);
        assert_eq!(set.0.count_ones(), 16);
        for c in ['Q', 'J', 'V', 'A', 'E', 'I', 'O', 'U'] {
            assert!(!all.contains(c));
        }
    }

    #[test]
    fn indices_round_trip() {
        for i in 0..Throw::COUNT {
            assert_eq!(Throw::from_index(i).index(), i);
        }
        for i in 0..Cast::COUNT {
            assert_eq!(Cast::from_index(i).index(), i);
        }
        let t = Throw { pips: [1, 2, 3], base: 2 };
        assert_eq!(t.to_string(), "A IO AEI / MNPR");
        assert_eq!(Throw::from_index(t.index()), t);
    }

    #[test]
    fn vowels_and_consonants() {
        assert_eq!(VowelCounts::of("PROUIDENTIA").0, [1, 1, 2, 1, 1]);
        assert_eq!(VowelCounts::of("JUSTITIA").0, [1, 0, 2, 0, 1]);
        assert_eq!(VowelCounts::of("VIRGINITAS").0, [1, 0, 3, 0, 0]);
        assert!(VowelCounts::of("AEIOUA").covers(VowelCounts::of("PAX")));
        assert!(!VowelCounts::of("AEI").covers(VowelCounts::of("KARITAS")));
        assert!(Letters::consonants_of("PAX").intersects(Letters::consonants_of("STXZ")));
        assert!(!Letters::consonants_of("PAX").intersects(Letters::consonants_of("BCDF")));
    }
}
