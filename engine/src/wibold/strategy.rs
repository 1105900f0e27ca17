//! The choice variant (a modern extension, not Wibold's) and its strategies.
//!
//! Under Wibold's rules a throw names at most one virtue, so there is nothing
//! to decide: every player takes what the dice give. In the choice variant a
//! throw may claim any one unowned virtue whose vowels (with repetition) the
//! cubes show and one of whose consonants lies below the tetrahedron,
//! whatever the pips. KARITAS has no re-cast there: it needs two A's and an I
//! on the cubes like any other name needs its vowels.

use std::fmt;
use std::str::FromStr;

use rand::Rng;

use super::dice::Throw;
use super::game::{Game, Players, Rules};
use super::outcome::shows;
use super::virtues::{Virtue, VirtueSet};
use crate::names::{UnknownName, parse_name};

/// For each throw (by [`Throw::index`]), the virtues its letters show.
pub static CLAIMABLE: [VirtueSet; Throw::COUNT] = {
    let mut t = [VirtueSet::EMPTY; Throw::COUNT];
    let mut i = 0;
    while i < Throw::COUNT {
        let throw = Throw::from_index(i);
        let (vowels, consonants) = (throw.vowels(), throw.consonants());
        let mut v = 0;
        while v < Virtue::COUNT {
            if shows(vowels, consonants, Virtue::from_index(v).unwrap()) {
                t[i] = VirtueSet(t[i].0 | 1 << v);
            }
            v += 1;
        }
        i += 1;
    }
    t
};

/// For each virtue, how many of the 864 throws show it in the choice variant.
pub static AVAILABILITY: [u16; Virtue::COUNT] = {
    let mut n = [0u16; Virtue::COUNT];
    let mut i = 0;
    while i < Throw::COUNT {
        let mut v = 0;
        while v < Virtue::COUNT {
            if CLAIMABLE[i].0 >> v & 1 != 0 {
                n[v] += 1;
            }
            v += 1;
        }
        i += 1;
    }
    n
};

/// The virtues from the hardest to claim to the easiest in the choice
/// variant, ties in Wibold's order.
pub static RAREST_FIRST: [Virtue; Virtue::COUNT] = {
    let mut order = [Virtue::KARITAS; Virtue::COUNT];
    let mut i = 0;
    while i < Virtue::COUNT {
        order[i] = Virtue::from_index(i).unwrap();
        i += 1;
    }
    // Insertion sort, stable: const fn has no sort.
    let mut i = 1;
    while i < Virtue::COUNT {
        let mut j = i;
        while j > 0 && AVAILABILITY[order[j - 1].index()] > AVAILABILITY[order[j].index()] {
            let t = order[j - 1];
            order[j - 1] = order[j];
            order[j] = t;
            j -= 1;
        }
        i += 1;
    }
    order
};

/// How a player picks among the virtues a throw lets him claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Strategy {
    /// The virtue hardest to get (fewest throws show it).
    GreedyRarest,
    /// The first in Wibold's order.
    GreedyTable,
    /// A virtue completing the most complementary pairs with those he holds
    /// (sums adding to 21), then the rarest.
    Complement,
    /// Any, uniformly at random.
    Random,
}

impl Strategy {
    pub const ALL: [Strategy; 4] =
        [Strategy::GreedyRarest, Strategy::GreedyTable, Strategy::Complement, Strategy::Random];

    pub const fn name(self) -> &'static str {
        match self {
            Strategy::GreedyRarest => "greedy-rarest",
            Strategy::GreedyTable => "greedy-table",
            Strategy::Complement => "complement",
            Strategy::Random => "random",
        }
    }

    /// Picks one of `options` (not empty) for a player holding `mine`.
    pub fn choose<R: Rng + ?Sized>(self, options: VirtueSet, mine: VirtueSet, rng: &mut R) -> Virtue {
        debug_assert!(!options.is_empty());
        match self {
            Strategy::GreedyTable => options.first().expect("options"),
            Strategy::GreedyRarest => *RAREST_FIRST.iter().find(|v| options.contains(**v)).expect("options"),
            Strategy::Complement => {
                let pairs = |v: Virtue| (mine & VirtueSet::with_sum(21 - v.sum())).len();
                let mut best: Option<(u32, Virtue)> = None;
                for &v in RAREST_FIRST.iter().filter(|v| options.contains(**v)) {
                    if best.is_none_or(|(p, _)| pairs(v) > p) {
                        best = Some((pairs(v), v));
                    }
                }
                best.expect("options").1
            }
            Strategy::Random => {
                let k = rng.random_range(0..options.len());
                options.iter().nth(k as usize).expect("k < len")
            }
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for Strategy {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Strategy, UnknownName> {
        parse_name(s.trim(), "strategy", &Strategy::ALL, Strategy::name)
    }
}

/// One turn of the choice variant: `throw` is a [`Throw`] index; the roller
/// claims what his strategy picks among the unowned virtues it shows.
/// Returns the virtue claimed.
#[inline]
pub fn choice_turn<R: Rng + ?Sized>(game: &mut Game, lineup: &[Strategy], throw: usize, rng: &mut R) -> Option<Virtue> {
    let options = CLAIMABLE[throw] - game.owned();
    if options.is_empty() {
        game.take(VirtueSet::EMPTY);
        return None;
    }
    let seat = game.to_roll();
    let v = lineup[seat].choose(options, game.held(seat), rng);
    game.take(v.bit());
    Some(v)
}

/// Plays one game of the choice variant to the end, seat `s` playing
/// `lineup[s]` (2 to 8 seats).
pub fn play_choice<R: Rng + ?Sized>(lineup: &[Strategy], rng: &mut R) -> Game {
    let players = Players::new(lineup.len()).expect("2 to 8 strategies");
    let mut game = Game::new(Rules::Full, players);
    while !game.is_over() {
        let throw = rng.random_range(0..Throw::COUNT);
        choice_turn(&mut game, lineup, throw, rng);
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn every_virtue_can_be_claimed() {
        for v in Virtue::all() {
            assert!(AVAILABILITY[v.index()] > 0, "{v}");
        }
        let mut order = RAREST_FIRST.to_vec();
        order.sort();
        assert_eq!(order, Virtue::all().collect::<Vec<_>>());
        for w in RAREST_FIRST.windows(2) {
            assert!(AVAILABILITY[w[0].index()] <= AVAILABILITY[w[1].index()]);
        }
    }

    #[test]
    fn the_claimable_set_contains_the_spelled_virtue() {
        // What the full rules acquire, the choice variant may claim.
        for (i, claimable) in CLAIMABLE.iter().enumerate() {
            for recast in 1..=6 {
                let cast = crate::wibold::Cast { throw: Throw::from_index(i), recast };
                if let Some(v) = crate::wibold::outcome::read(cast).spelled()
                    && v != Virtue::KARITAS
                {
                    assert!(claimable.contains(v), "{}", cast.throw);
                }
            }
        }
    }

    #[test]
    fn strategies_pick_as_described() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let pax = Virtue::PAX;
        let confessio: Virtue = "CONFESSIO".parse().unwrap();
        let options = pax.bit() | confessio.bit() | Virtue::HUMILITAS.bit();
        assert_eq!(Strategy::GreedyTable.choose(options, VirtueSet::EMPTY, &mut rng), pax);
        let rarest = Strategy::GreedyRarest.choose(options, VirtueSet::EMPTY, &mut rng);
        assert!(options.iter().all(|v| AVAILABILITY[rarest.index()] <= AVAILABILITY[v.index()]));
        // Holding JUSTITIA (6), CONFESSIO (15) completes a pair.
        let mine: VirtueSet = ["JUSTITIA".parse::<Virtue>().unwrap()].into_iter().collect();
        assert_eq!(Strategy::Complement.choose(options, mine, &mut rng), confessio);
        for _ in 0..50 {
            assert!(options.contains(Strategy::Random.choose(options, mine, &mut rng)));
        }
        for s in Strategy::ALL {
            assert_eq!(s.to_string().parse::<Strategy>(), Ok(s));
        }
        assert!("lazy".parse::<Strategy>().unwrap_err().to_string().contains("'lazy'"));
    }

    #[test]
    fn a_choice_game_ends_with_every_virtue_owned() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let g = play_choice(&Strategy::ALL, &mut rng);
        assert!(g.is_over());
        assert_eq!((0..4).map(|s| g.held(s).len()).sum::<u32>(), 56);
    }
}
