//! Wibold's table of 56 virtues: each with its roll of three cubes, its Latin
//! name as the article's simulator spells it, and its English name.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// The pip counts of the three cubes, sorted: `a ≤ b ≤ c`, each 1 to 6. The
/// cubes are read without order, so one roll stands for up to six throws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Roll {
    a: u8,
    b: u8,
    c: u8,
}

impl Roll {
    /// The roll of three cubes showing these pips in any order, or `None` if
    /// a count is not 1 to 6.
    pub const fn new(pips: [u8; 3]) -> Option<Roll> {
        let [mut a, mut b, mut c] = pips;
        if a < 1 || a > 6 || b < 1 || b > 6 || c < 1 || c > 6 {
            return None;
        }
        // Three compare-and-swaps sort three values (const fn has no sort).
        if a > b {
            (a, b) = (b, a);
        }
        if b > c {
            (b, c) = (c, b);
        }
        if a > b {
            (a, b) = (b, a);
        }
        Some(Roll { a, b, c })
    }

    /// The sorted pip counts.
    pub const fn pips(self) -> [u8; 3] {
        [self.a, self.b, self.c]
    }

    /// The sum of the pips, 3 to 18: the simplified game reads only this.
    pub const fn sum(self) -> u8 {
        self.a + self.b + self.c
    }

    /// The roll on the opposite faces (opposite faces of a cube add to 7):
    /// Wibold pairs each virtue with the one of the complementary roll, and
    /// their sums add to 21.
    pub const fn complement(self) -> Roll {
        Roll { a: 7 - self.c, b: 7 - self.b, c: 7 - self.a }
    }

    /// The virtue this roll names: Wibold lists the rolls in lexicographic
    /// order, so the index counts the sorted triples before this one.
    pub const fn virtue(self) -> Virtue {
        let mut i = 0;
        while i < Virtue::COUNT {
            let r = TABLE[i].roll;
            if r.a == self.a && r.b == self.b && r.c == self.c {
                return Virtue(i as u8);
            }
            i += 1;
        }
        unreachable!()
    }
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}-{}", self.a, self.b, self.c)
    }
}

/// Text that is not a roll of three dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseRollError {
    /// Not three parts joined by `-`.
    Parts { text: String },
    /// A part is not a pip count from 1 to 6.
    Pips { text: String, part: String },
}

impl fmt::Display for ParseRollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseRollError::Parts { text } => write!(f, "'{text}' is not a roll: expected three pip counts like 1-2-3"),
            ParseRollError::Pips { text, part } => {
                write!(f, "'{part}' in roll '{text}' is not a pip count from 1 to 6")
            }
        }
    }
}

impl std::error::Error for ParseRollError {}

impl FromStr for Roll {
    type Err = ParseRollError;
    /// Reads `a-b-c` (any order, e.g. `3-1-2`), each a pip count 1 to 6.
    fn from_str(s: &str) -> Result<Roll, ParseRollError> {
        let parts: Vec<&str> = s.trim().split('-').collect();
        if parts.len() != 3 {
            return Err(ParseRollError::Parts { text: s.to_string() });
        }
        let mut pips = [0u8; 3];
        for (i, p) in parts.iter().enumerate() {
            pips[i] = match p.parse::<u8>() {
                Ok(n @ 1..=6) => n,
                _ => return Err(ParseRollError::Pips { text: s.to_string(), part: p.to_string() }),
            };
        }
        Ok(Roll::new(pips).expect("pips checked"))
    }
}

/// One row of Wibold's table.
#[derive(Clone, Copy, Debug)]
struct Row {
    roll: Roll,
    latin: &'static str,
    english: &'static str,
}

const fn row(pips: [u8; 3], latin: &'static str, english: &'static str) -> Row {
    Row { roll: Roll { a: pips[0], b: pips[1], c: pips[2] }, latin, english }
}

/// The table of the spec, in Wibold's order.
const TABLE: [Row; Virtue::COUNT] = [
    row([1, 1, 1], "KARITAS", "Charity"),
    row([1, 1, 2], "FIDES", "Faith"),
    row([1, 1, 3], "SPES", "Hope"),
    row([1, 1, 4], "JUSTITIA", "Justice"),
    row([1, 1, 5], "PRUDENTIA", "Prudence"),
    row([1, 1, 6], "TEMPERANTIA", "Temperance"),
    row([1, 2, 2], "FORTITUDO", "Fortitude"),
    row([1, 2, 3], "PAX", "Peace"),
    row([1, 2, 4], "CASTITAS", "Chastity"),
    row([1, 2, 5], "MISERICORDIA", "Mercy"),
    row([1, 2, 6], "OBEDIENTIA", "Obedience"),
    row([1, 3, 3], "TIMOR", "Fear"),
    row([1, 3, 4], "PROUIDENTIA", "Foresight"),
    row([1, 3, 5], "DISCRETIO", "Discretion"),
    row([1, 3, 6], "PERSEUERANTIA", "Perseverance"),
    row([1, 4, 4], "BONITAS", "Goodness"),
    row([1, 4, 5], "MODESTIA", "Modesty"),
    row([1, 4, 6], "LONGANIMITAS", "Long-suffering"),
    row([1, 5, 5], "MANSUETUDO", "Gentleness"),
    row([1, 5, 6], "BENIGNITAS", "Liberality"),
    row([1, 6, 6], "SAPIENTIA", "Wisdom"),
    row([2, 2, 2], "COMPUNCTIO", "Remorse"),
    row([2, 2, 3], "GAUDIUM", "Joy"),
    row([2, 2, 4], "SOBRIETAS", "Sobriety"),
    row([2, 2, 5], "DELECTATIO", "Satisfaction"),
    row([2, 2, 6], "SUAUITAS", "Sweetness"),
    row([2, 3, 3], "ASTUTIA", "Cleverness"),
    row([2, 3, 4], "SIMPLICITAS", "Simplicity"),
    row([2, 3, 5], "HOSPITALITAS", "Hospitality"),
    row([2, 3, 6], "PARCITAS", "Economy"),
    row([2, 4, 4], "PATIENTIA", "Patience"),
    row([2, 4, 5], "ZELUS", "Zeal"),
    row([2, 4, 6], "PAUPERTAS", "Poverty"),
    row([2, 5, 5], "LENITAS", "Mildness"),
    row([2, 5, 6], "VIRGINITAS", "Virginity"),
    row([2, 6, 6], "REUERENTIA", "Reverence"),
    row([3, 3, 3], "PIETAS", "Piety"),
    row([3, 3, 4], "INDULGENTIA", "Indulgence"),
    row([3, 3, 5], "ORATIO", "Prayerfulness"),
    row([3, 3, 6], "AMOR", "Love"),
    row([3, 4, 4], "IUDICIUM", "Judgment"),
    row([3, 4, 5], "VIGILANTIA", "Vigilance"),
    row([3, 4, 6], "MORTIFICATIO", "Mortification"),
    row([3, 5, 5], "INNOCENTIA", "Innocence"),
    row([3, 5, 6], "CONTRICIO", "Contrition"),
    row([3, 6, 6], "CONFESSIO", "Exomologesis"),
    row([4, 4, 4], "MATURITAS", "Maturity"),
    row([4, 4, 5], "SOLLICITUDO", "Concern"),
    row([4, 4, 6], "CONSTANTIA", "Constancy"),
    row([4, 5, 5], "INTELLECTUS", "Understanding"),
    row([4, 5, 6], "SUSPIRATIO", "Longing"),
    row([4, 6, 6], "FLETUS", "Lamentation"),
    row([5, 5, 5], "HILARITAS", "Cheerfulness"),
    row([5, 5, 6], "COMPASSIO", "Compassion"),
    row([5, 6, 6], "CONTINENTIA", "Self-control"),
    row([6, 6, 6], "HUMILITAS", "Humility"),
];

/// One of the 56 virtues, numbered 0 to 55 in Wibold's order (KARITAS first,
/// HUMILITAS last).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Virtue(u8);

impl Virtue {
    pub const COUNT: usize = 56;
    /// Charity, 1-1-1: the one virtue that allows a re-cast, and the tie-break.
    pub const KARITAS: Virtue = Virtue(0);
    pub const PAX: Virtue = Virtue(7);
    pub const GAUDIUM: Virtue = Virtue(22);
    pub const HUMILITAS: Virtue = Virtue(55);

    /// The virtue numbered `i` (0-based) in Wibold's order.
    pub const fn from_index(i: usize) -> Option<Virtue> {
        if i < Virtue::COUNT { Some(Virtue(i as u8)) } else { None }
    }
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn bit(self) -> VirtueSet {
        VirtueSet(1 << self.0)
    }
    pub const fn roll(self) -> Roll {
        TABLE[self.0 as usize].roll
    }
    pub const fn sum(self) -> u8 {
        self.roll().sum()
    }
    /// The Latin name, in capitals, as the article's simulator spells it.
    pub const fn latin(self) -> &'static str {
        TABLE[self.0 as usize].latin
    }
    pub const fn english(self) -> &'static str {
        TABLE[self.0 as usize].english
    }
    /// Wibold's mate of this virtue: the one of the complementary roll.
    pub const fn mate(self) -> Virtue {
        self.roll().complement().virtue()
    }
    /// All virtues in Wibold's order.
    pub fn all() -> impl ExactSizeIterator<Item = Virtue> + Clone {
        (0..Virtue::COUNT as u8).map(Virtue)
    }
}

impl fmt::Display for Virtue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.latin())
    }
}

/// Text that names no virtue of Wibold's table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVirtue {
    pub text: String,
}

impl fmt::Display for UnknownVirtue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a virtue of Wibold's table (give its Latin or English name, or its roll like 1-2-3)",
            self.text
        )
    }
}

impl std::error::Error for UnknownVirtue {}

impl FromStr for Virtue {
    type Err = UnknownVirtue;
    /// Reads a Latin or English name (any case) or a roll like `1-2-3`.
    fn from_str(s: &str) -> Result<Virtue, UnknownVirtue> {
        let t = s.trim();
        if let Some(v) =
            Virtue::all().find(|v| v.latin().eq_ignore_ascii_case(t) || v.english().eq_ignore_ascii_case(t))
        {
            return Ok(v);
        }
        if t.contains('-')
            && let Ok(r) = t.parse::<Roll>()
        {
            return Ok(r.virtue());
        }
        Err(UnknownVirtue { text: s.to_string() })
    }
}

crate::small_set! {
    /// A set of virtues, one bit each in Wibold's order.
    VirtueSet(u64) of Virtue, iter VirtueIter
}

impl VirtueSet {
    pub const ALL: VirtueSet = VirtueSet((1 << Virtue::COUNT) - 1);

    /// The virtues whose roll has this sum (3 to 18); empty for other sums.
    #[inline]
    pub const fn with_sum(sum: u8) -> VirtueSet {
        if sum < 19 { BY_SUM[sum as usize] } else { VirtueSet::EMPTY }
    }
}

/// The virtues of each sum, indexed by the sum.
const BY_SUM: [VirtueSet; 19] = {
    let mut t = [VirtueSet::EMPTY; 19];
    let mut i = 0;
    while i < Virtue::COUNT {
        let s = TABLE[i].roll.sum() as usize;
        t[s] = VirtueSet(t[s].0 | 1 << i);
        i += 1;
    }
    t
};

impl Not for VirtueSet {
    type Output = VirtueSet;
    /// The virtues not in the set (within the 56).
    #[inline]
    fn not(self) -> VirtueSet {
        VirtueSet(!self.0 & VirtueSet::ALL.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_sorted_roll_once_in_lexicographic_order() {
        let mut rolls = Vec::new();
        for a in 1..=6 {
            for b in a..=6 {
                for c in b..=6 {
                    rolls.push(Roll::new([a, b, c]).unwrap());
                }
            }
        }
        assert_eq!(rolls.len(), Virtue::COUNT);
        let table: Vec<Roll> = Virtue::all().map(Virtue::roll).collect();
        assert_eq!(table, rolls);
        for (i, r) in rolls.iter().enumerate() {
            assert_eq!(r.virtue().index(), i);
        }
    }

    #[test]
    fn sums_follow_wibold_counts_of_virtues() {
        // Wibold: 1, 1, 2, 3, 4, 5, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1 virtues for sums 3..18.
        let counts: Vec<u32> = (3..=18).map(|s| VirtueSet::with_sum(s).len()).collect();
        assert_eq!(counts, [1, 1, 2, 3, 4, 5, 6, 6, 6, 6, 5, 4, 3, 2, 1, 1]);
        assert_eq!((3..=18).map(|s| VirtueSet::with_sum(s).len()).sum::<u32>(), 56);
    }

    #[test]
    fn mates_are_wibold_pairs() {
        let mate = |a: &str| a.parse::<Virtue>().unwrap().mate().latin();
        assert_eq!(mate("KARITAS"), "HUMILITAS");
        assert_eq!(mate("FIDES"), "CONTINENTIA");
        assert_eq!(mate("SPES"), "FLETUS");
        assert_eq!(mate("PAX"), "SUSPIRATIO");
        assert_eq!(mate("COMPUNCTIO"), "HILARITAS");
        for v in Virtue::all() {
            assert_eq!(v.mate().mate(), v);
            assert_eq!(v.sum() + v.mate().sum(), 21);
        }
    }

    #[test]
    fn names_and_rolls_round_trip() {
        for v in Virtue::all() {
            assert_eq!(v.latin().parse::<Virtue>(), Ok(v));
            assert_eq!(v.english().to_lowercase().parse::<Virtue>(), Ok(v));
            assert_eq!(v.roll().to_string().parse::<Roll>(), Ok(v.roll()));
            assert_eq!(v.roll().to_string().parse::<Virtue>(), Ok(v));
        }
        assert_eq!("3-1-2".parse::<Virtue>(), Ok(Virtue::PAX));
        assert_eq!("1-2-7".parse::<Roll>(), Err(ParseRollError::Pips { text: "1-2-7".into(), part: "7".into() }));
        assert!("1-2-7".parse::<Roll>().unwrap_err().to_string().contains("'7'"));
        assert_eq!("1-2".parse::<Roll>(), Err(ParseRollError::Parts { text: "1-2".into() }));
        assert_eq!("VANITAS".parse::<Virtue>(), Err(UnknownVirtue { text: "VANITAS".into() }));
        assert!("VANITAS".parse::<Virtue>().unwrap_err().to_string().contains("VANITAS"));
    }

    #[test]
    fn sets() {
        let s: VirtueSet = [Virtue::PAX, Virtue::KARITAS].into_iter().collect();
        assert_eq!(s.len(), 2);
        assert_eq!(s.first(), Some(Virtue::KARITAS));
        assert_eq!(s.iter().collect::<Vec<_>>(), [Virtue::KARITAS, Virtue::PAX]);
        assert_eq!((!s).len(), 54);
        assert_eq!(VirtueSet::ALL - s, !s);
    }
}
