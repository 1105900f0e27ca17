//! One game of Wibold's: 2 to 8 players roll in turn until all 56 virtues
//! are owned; the full rules or the simplified ones.

use std::fmt;
use std::str::FromStr;

use super::dice::{CUBES_COUNT, Cast};
use super::outcome::{BY_CUBES, NOTHING, SPELLED};
use super::scoring::{Scoring, Verdict};
use super::virtues::{Virtue, VirtueSet};
use crate::names::{UnknownName, parse_name};

/// Which of Wibold's two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Rules {
    /// Three cubes and the tetrahedron; the pips name one virtue, the
    /// letters must spell it.
    Full,
    /// The three cubes alone; the roller takes every unowned virtue whose
    /// roll has the same sum.
    Simplified,
}

impl Rules {
    pub const ALL: [Rules; 2] = [Rules::Full, Rules::Simplified];

    pub const fn name(self) -> &'static str {
        match self {
            Rules::Full => "full",
            Rules::Simplified => "simplified",
        }
    }

    /// The number of equally likely outcomes of one roll, which
    /// [`Game::roll`] takes by index: the 5184 [`Cast`]s (a throw and the
    /// face of a possible re-cast) or the 216 throws of the cubes alone.
    pub const fn outcomes(self) -> usize {
        match self {
            Rules::Full => Cast::COUNT,
            Rules::Simplified => CUBES_COUNT,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rules {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Rules, UnknownName> {
        parse_name(s, "rules", &Rules::ALL, Rules::name)
    }
}

/// The number of players, 2 to 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Players(u8);

impl Players {
    pub const MIN: usize = 2;
    pub const MAX: usize = 8;

    pub fn new(n: usize) -> Result<Players, PlayersError> {
        if (Players::MIN..=Players::MAX).contains(&n) { Ok(Players(n as u8)) } else { Err(PlayersError::OutOfRange(n)) }
    }

    #[inline]
    pub const fn count(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Players {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Players {
    type Err = PlayersError;
    fn from_str(s: &str) -> Result<Players, PlayersError> {
        let n: usize = s.trim().parse().map_err(|_| PlayersError::NotANumber(s.to_string()))?;
        Players::new(n)
    }
}

/// A number of players Wibold's game cannot have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayersError {
    /// The text is not a whole number.
    NotANumber(String),
    /// Fewer than [`Players::MIN`] or more than [`Players::MAX`].
    OutOfRange(usize),
}

impl fmt::Display for PlayersError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayersError::NotANumber(s) => write!(f, "'{s}' is not a number of players"),
            PlayersError::OutOfRange(n) => {
                write!(f, "{n} players: Wibold's game takes {} to {} players", Players::MIN, Players::MAX)
            }
        }
    }
}

impl std::error::Error for PlayersError {}

/// A game in progress: who holds which virtues and who rolls next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    players: u8,
    to_roll: u8,
    rolls: u32,
    owned: VirtueSet,
    held: [VirtueSet; Players::MAX],
}

impl Game {
    pub fn new(rules: Rules, players: Players) -> Game {
        Game { rules, players: players.0, to_roll: 0, rolls: 0, owned: VirtueSet::EMPTY, held: [VirtueSet::EMPTY; 8] }
    }

    pub const fn rules(&self) -> Rules {
        self.rules
    }
    pub const fn players(&self) -> usize {
        self.players as usize
    }
    /// The seat (from 0, in rolling order) of the player about to roll.
    #[inline]
    pub const fn to_roll(&self) -> usize {
        self.to_roll as usize
    }
    /// Rolls made so far.
    #[inline]
    pub const fn rolls(&self) -> u32 {
        self.rolls
    }
    /// Every owned virtue.
    #[inline]
    pub const fn owned(&self) -> VirtueSet {
        self.owned
    }
    /// The virtues one seat holds.
    #[inline]
    pub const fn held(&self, seat: usize) -> VirtueSet {
        self.held[seat]
    }
    #[inline]
    pub const fn is_over(&self) -> bool {
        self.owned.0 == VirtueSet::ALL.0
    }
    /// Who holds a virtue, if anybody.
    pub fn owner(&self, v: Virtue) -> Option<usize> {
        (0..self.players()).find(|&s| self.held[s].contains(v))
    }

    /// What a roll would acquire for the roller: `outcome` is below
    /// [`Rules::outcomes`], a [`Cast`] index under the full rules, the index of
    /// the cubes alone under the simplified ones.
    #[inline]
    pub fn gains(&self, outcome: usize) -> VirtueSet {
        match self.rules {
            Rules::Full => {
                let v = SPELLED[outcome];
                if v == NOTHING { VirtueSet::EMPTY } else { VirtueSet(1 << v) - self.owned }
            }
            Rules::Simplified => BY_CUBES[outcome] - self.owned,
        }
    }

    /// Plays one roll (see [`Game::gains`]): the roller acquires what it
    /// gives and passes the dice. Returns what he acquired.
    #[inline]
    pub fn roll(&mut self, outcome: usize) -> VirtueSet {
        let got = self.gains(outcome);
        self.take(got);
        got
    }

    /// The roller acquires `virtues`, all unowned, and passes the dice: the
    /// end of a turn. The choice variant's strategies call this directly.
    #[inline]
    pub fn take(&mut self, virtues: VirtueSet) {
        debug_assert!((virtues & self.owned).is_empty(), "{virtues:?} already owned");
        self.owned |= virtues;
        self.held[self.to_roll as usize] |= virtues;
        self.rolls += 1;
        self.to_roll = if self.to_roll + 1 == self.players { 0 } else { self.to_roll + 1 };
    }

    /// A seat's score.
    pub fn score(&self, seat: usize, scoring: Scoring) -> u32 {
        scoring.score(self.held[seat])
    }

    /// The seat holding KARITAS, if it is owned.
    pub fn karitas(&self) -> Option<usize> {
        self.owner(Virtue::KARITAS)
    }

    /// Who wins under a scoring (meant for a finished game).
    pub fn verdict(&self, scoring: Scoring) -> Verdict {
        let mut scores = [0u32; Players::MAX];
        for (s, score) in scores.iter_mut().enumerate().take(self.players()) {
            *score = self.score(s, scoring);
        }
        Verdict::decide(&scores[..self.players()], self.karitas())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wibold::dice::Throw;

    #[test]
    fn players_are_two_to_eight() {
        assert!(Players::new(1).unwrap_err().to_string().contains("2 to 8"));
        assert!(Players::new(9).is_err());
        assert_eq!("8".parse::<Players>().map(Players::count), Ok(8));
        assert_eq!("two".parse::<Players>(), Err(PlayersError::NotANumber("two".into())));
        assert_eq!("9".parse::<Players>(), Err(PlayersError::OutOfRange(9)));
        for r in Rules::ALL {
            assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
        }
        assert!("short".parse::<Rules>().unwrap_err().to_string().contains("full or simplified"));
    }

    #[test]
    fn turns_pass_and_owned_virtues_stay() {
        let mut g = Game::new(Rules::Full, Players::new(3).unwrap());
        let pax = Cast { throw: Throw { pips: [1, 2, 3], base: 2 }, recast: 1 }.index();
        assert_eq!(g.roll(pax), Virtue::PAX.bit());
        assert_eq!(g.to_roll(), 1);
        assert_eq!(g.roll(pax), VirtueSet::EMPTY, "PAX is owned");
        assert_eq!(g.roll(pax), VirtueSet::EMPTY);
        assert_eq!(g.to_roll(), 0);
        assert_eq!(g.rolls(), 3);
        assert_eq!(g.owner(Virtue::PAX), Some(0));
        assert!(!g.is_over());
    }

    #[test]
    fn the_simplified_game_takes_a_whole_sum() {
        let mut g = Game::new(Rules::Simplified, Players::new(2).unwrap());
        // Cubes 1, 2, 3 (index (0·6 + 1)·6 + 2): sum 6, three virtues.
        let got = g.roll(8);
        assert_eq!(got, VirtueSet::with_sum(6));
        assert_eq!(got.len(), 3);
        assert_eq!(g.roll(8), VirtueSet::EMPTY);
        assert_eq!(g.held(0).len(), 3);
    }
}
