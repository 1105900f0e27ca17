//! What one throw does under Wibold's rules: the virtue its pips name and
//! whether its letters spell it, with the one re-cast for KARITAS. The
//! readings of all 5184 casts are computed at build time, so the simulator's
//! roll is one table lookup.

use std::fmt;

use super::dice::{CUBE_FACES, Cast, Letters, VowelCounts, cubes_from_index};
use super::virtues::{Roll, Virtue, VirtueSet};

/// Why a throw does not acquire the virtue its pips name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Miss {
    /// The cubes do not show every vowel of the name.
    Vowels,
    /// No consonant of the name is on the tetrahedron's bottom face.
    Consonant,
    /// KARITAS only: the re-cast cube shows no second A.
    Recast,
}

impl fmt::Display for Miss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Miss::Vowels => "the vowels do not spell it",
            Miss::Consonant => "no consonant of it below the tetrahedron",
            Miss::Recast => "the re-cast shows no second A",
        })
    }
}

/// The reading of one cast under the full rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reading {
    /// The letters spell the virtue the pips name: the roller acquires it
    /// unless somebody owns it already.
    Spelled(Virtue),
    /// The pips name this virtue but the letters do not spell it.
    Missed(Virtue, Miss),
}

impl Reading {
    pub const fn virtue(self) -> Virtue {
        match self {
            Reading::Spelled(v) | Reading::Missed(v, _) => v,
        }
    }
    pub const fn spelled(self) -> Option<Virtue> {
        match self {
            Reading::Spelled(v) => Some(v),
            Reading::Missed(..) => None,
        }
    }
}

/// The vowels of each virtue's Latin name, with repetition.
pub const NAME_VOWELS: [VowelCounts; Virtue::COUNT] = {
    let mut t = [VowelCounts([0; 5]); Virtue::COUNT];
    let mut i = 0;
    while i < Virtue::COUNT {
        t[i] = VowelCounts::of(Virtue::from_index(i).unwrap().latin());
        i += 1;
    }
    t
};

/// The consonants of each virtue's Latin name.
pub const NAME_CONSONANTS: [Letters; Virtue::COUNT] = {
    let mut t = [Letters(0); Virtue::COUNT];
    let mut i = 0;
    while i < Virtue::COUNT {
        t[i] = Letters::consonants_of(Virtue::from_index(i).unwrap().latin());
        i += 1;
    }
    t
};

/// Whether the letters of a throw spell a virtue, whatever the pips: its
/// vowels on the cubes and one of its consonants below the tetrahedron.
pub const fn shows(vowels: VowelCounts, consonants: Letters, v: Virtue) -> bool {
    vowels.covers(NAME_VOWELS[v.index()]) && consonants.intersects(NAME_CONSONANTS[v.index()])
}

/// Reads one cast under the full rules (spec, "Acquiring a virtue").
pub const fn read(cast: Cast) -> Reading {
    let t = cast.throw;
    let v = match Roll::new(t.pips) {
        Some(r) => r.virtue(),
        None => unreachable!(),
    };
    if !t.consonants().intersects(NAME_CONSONANTS[v.index()]) {
        return Reading::Missed(v, Miss::Consonant);
    }
    let vowels = t.vowels();
    let need = NAME_VOWELS[v.index()];
    if vowels.covers(need) {
        return Reading::Spelled(v);
    }
    if v.index() != Virtue::KARITAS.index() {
        return Reading::Missed(v, Miss::Vowels);
    }
    // KARITAS shows A, E, I and lacks an A: cube 2 (the E) is cast again.
    let kept = VowelCounts::of(t.face(0)).plus(VowelCounts::of(t.face(2)));
    let again = VowelCounts::of(CUBE_FACES[Cast::RECAST_CUBE][cast.recast as usize - 1]);
    if kept.plus(again).covers(need) { Reading::Spelled(v) } else { Reading::Missed(v, Miss::Recast) }
}

/// No virtue: a table entry of [`SPELLED`].
pub const NOTHING: u8 = u8::MAX;

/// For each cast (by [`Cast::index`]), the index of the virtue it acquires if
/// unowned, or [`NOTHING`].
pub static SPELLED: [u8; Cast::COUNT] = {
    let mut t = [NOTHING; Cast::COUNT];
    let mut i = 0;
    while i < Cast::COUNT {
        if let Reading::Spelled(v) = read(Cast::from_index(i)) {
            t[i] = v.index() as u8;
        }
        i += 1;
    }
    t
};

/// For each throw of the three cubes alone (by the index of
/// [`cubes_from_index`]), the virtues of its sum: the simplified game
/// acquires all of them that are unowned.
pub static BY_CUBES: [VirtueSet; super::dice::CUBES_COUNT] = {
    let mut t = [VirtueSet::EMPTY; super::dice::CUBES_COUNT];
    let mut i = 0;
    while i < super::dice::CUBES_COUNT {
        let p = cubes_from_index(i);
        t[i] = VirtueSet::with_sum(p[0] + p[1] + p[2]);
        i += 1;
    }
    t
};

/// The virtue a cast acquires if unowned: one table lookup.
#[inline]
pub fn spelled(cast_index: usize) -> Option<Virtue> {
    Virtue::from_index(SPELLED[cast_index] as usize)
}

/// How many of the 5184 casts spell each virtue: the number of the 864
/// throws that acquire it, times 6 (KARITAS: 3 throws × 4 faces of 6 = 12,
/// i.e. 2 throws).
pub fn casts_per_virtue() -> [u32; Virtue::COUNT] {
    let mut n = [0u32; Virtue::COUNT];
    for &v in SPELLED.iter() {
        if v != NOTHING {
            n[v as usize] += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wibold::dice::Throw;

    #[test]
    fn the_article_examples() {
        // PAX from {A, IO, AEI} with MNPR below.
        let pax = Cast { throw: Throw { pips: [1, 2, 3], base: 2 }, recast: 1 };
        assert_eq!(read(pax), Reading::Spelled(Virtue::PAX));
        let pax_bcdf = Cast { throw: Throw { pips: [1, 2, 3], base: 0 }, recast: 1 };
        assert_eq!(read(pax_bcdf), Reading::Missed(Virtue::PAX, Miss::Consonant));
        // GAUDIUM: {EI, IO, AEI} lacks the U's; {EI, OU, UAE} spells it with G, D or M.
        let g1 = Cast { throw: Throw { pips: [2, 2, 3], base: 0 }, recast: 1 };
        assert_eq!(read(g1), Reading::Missed(Virtue::GAUDIUM, Miss::Vowels));
        let g2 = Cast { throw: Throw { pips: [2, 3, 2], base: 0 }, recast: 1 };
        assert_eq!(read(g2), Reading::Spelled(Virtue::GAUDIUM));
    }

    #[test]
    fn karitas_needs_the_recast() {
        for recast in 1..=6u8 {
            let c = Cast { throw: Throw { pips: [1, 1, 1], base: 3 }, recast };
            let a = CUBE_FACES[Cast::RECAST_CUBE][recast as usize - 1].contains('A');
            let want =
                if a { Reading::Spelled(Virtue::KARITAS) } else { Reading::Missed(Virtue::KARITAS, Miss::Recast) };
            assert_eq!(read(c), want);
        }
        let bcdf = Cast { throw: Throw { pips: [1, 1, 1], base: 0 }, recast: 3 };
        assert_eq!(read(bcdf), Reading::Missed(Virtue::KARITAS, Miss::Consonant));
    }

    #[test]
    fn the_recast_face_matters_only_for_karitas() {
        for t in 0..Throw::COUNT {
            let throw = Throw::from_index(t);
            let first = read(Cast { throw, recast: 1 });
            for recast in 2..=6 {
                let r = read(Cast { throw, recast });
                if first.virtue() != Virtue::KARITAS {
                    assert_eq!(r, first);
                }
            }
        }
    }

    #[test]
    fn justitia_and_pax_counts() {
        let n = casts_per_virtue();
        assert_eq!(n[Virtue::PAX.index()], 12 * 6);
        assert_eq!(n[Virtue::GAUDIUM.index()], 6 * 6);
        assert_eq!(n[Virtue::KARITAS.index()], 2 * 6);
        assert_eq!(n.iter().sum::<u32>(), 417 * 6);
    }
}
