//! The boards of the merels family: points, lines (mills), adjacency and
//! symmetries, exactly as in the spec's board table.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use arrayvec::ArrayVec;

use crate::names::{UnknownName, parse_name};

use super::point::{Point, PointSet};
use super::symmetry::{Symmetry, automorphisms};

/// The most points any board has (nine men's morris).
pub const MAX_POINTS: usize = 24;

/// Which board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum BoardKind {
    /// Rota, the Roman wheel: eight points on the rim and the centre
    Rota,
    /// Three men's morris: a square of nine points
    Three,
    /// Six men's morris: two nested squares
    Six,
    /// Nine men's morris: three nested squares
    Nine,
}

impl BoardKind {
    pub const ALL: [BoardKind; 4] = [BoardKind::Rota, BoardKind::Three, BoardKind::Six, BoardKind::Nine];

    pub const fn name(self) -> &'static str {
        match self {
            BoardKind::Rota => "rota",
            BoardKind::Three => "three",
            BoardKind::Six => "six",
            BoardKind::Nine => "nine",
        }
    }

    /// Men each side has at the start.
    pub const fn men(self) -> u8 {
        match self {
            BoardKind::Rota | BoardKind::Three => 3,
            BoardKind::Six => 6,
            BoardKind::Nine => 9,
        }
    }
}

impl fmt::Display for BoardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BoardKind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        parse_name(s, "board", &BoardKind::ALL, BoardKind::name)
    }
}

/// A board graph: points, lines of three and adjacency, with its symmetries.
#[derive(Debug)]
pub struct Board {
    pub kind: BoardKind,
    /// Only for `three`: diagonals are lines and diagonal steps through the
    /// centre are allowed.
    pub diagonals: bool,
    names: &'static [&'static str],
    adj: [PointSet; MAX_POINTS],
    lines: Vec<PointSet>,
    lines_at: [ArrayVec<PointSet, 4>; MAX_POINTS],
    symmetries: Vec<Symmetry>,
}

const ROTA: &[&str] = &["c", "n", "ne", "e", "se", "s", "sw", "w", "nw"];
const THREE: &[&str] = &["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];
const SIX: &[&str] = &["a1", "d1", "g1", "b2", "d2", "f2", "a4", "b4", "f4", "g4", "b6", "d6", "f6", "a7", "d7", "g7"];
const NINE: &[&str] = &[
    "a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3", "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5", "d5", "e5", "b6",
    "d6", "f6", "a7", "d7", "g7",
];

impl Board {
    /// The board of the given kind; `diagonals` matters only for `three`.
    pub fn get(kind: BoardKind, diagonals: bool) -> &'static Board {
        static BOARDS: [OnceLock<Board>; 5] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let slot = match (kind, diagonals) {
            (BoardKind::Rota, _) => 0,
            (BoardKind::Three, false) => 1,
            (BoardKind::Three, true) => 2,
            (BoardKind::Six, _) => 3,
            (BoardKind::Nine, _) => 4,
        };
        BOARDS[slot].get_or_init(|| Board::build(kind, diagonals && kind == BoardKind::Three))
    }

    fn build(kind: BoardKind, diagonals: bool) -> Board {
        // The lines of the outer and middle squares, the first of six's and
        // nine's lines alike.
        const TWO_SQUARES: [[&str; 3]; 8] = [
            ["a1", "d1", "g1"],
            ["g1", "g4", "g7"],
            ["a7", "d7", "g7"],
            ["a1", "a4", "a7"],
            ["b2", "d2", "f2"],
            ["f2", "f4", "f6"],
            ["b6", "d6", "f6"],
            ["b2", "b4", "b6"],
        ];
        let (names, lines, extra_edges, centre_spokes): (_, Vec<[&str; 3]>, Vec<[&str; 2]>, bool) = match kind {
            BoardKind::Rota => (
                ROTA,
                vec![["n", "c", "s"], ["ne", "c", "sw"], ["e", "c", "w"], ["se", "c", "nw"]],
                vec![
                    ["n", "ne"],
                    ["ne", "e"],
                    ["e", "se"],
                    ["se", "s"],
                    ["s", "sw"],
                    ["sw", "w"],
                    ["w", "nw"],
                    ["nw", "n"],
                ],
                true,
            ),
            BoardKind::Three => {
                let mut lines = vec![
                    ["a1", "b1", "c1"],
                    ["a2", "b2", "c2"],
                    ["a3", "b3", "c3"],
                    ["a1", "a2", "a3"],
                    ["b1", "b2", "b3"],
                    ["c1", "c2", "c3"],
                ];
                if diagonals {
                    lines.push(["a1", "b2", "c3"]);
                    lines.push(["c1", "b2", "a3"]);
                }
                (THREE, lines, vec![], false)
            }
            BoardKind::Six => {
                (SIX, TWO_SQUARES.to_vec(), vec![["a4", "b4"], ["d1", "d2"], ["g4", "f4"], ["d7", "d6"]], false)
            }
            BoardKind::Nine => (
                NINE,
                [
                    TWO_SQUARES.as_slice(),
                    &[
                        ["c3", "d3", "e3"],
                        ["e3", "e4", "e5"],
                        ["c5", "d5", "e5"],
                        ["c3", "c4", "c5"],
                        ["d1", "d2", "d3"],
                        ["g4", "f4", "e4"],
                        ["d7", "d6", "d5"],
                        ["a4", "b4", "c4"],
                    ],
                ]
                .concat(),
                vec![],
                false,
            ),
        };
        let pt = |name: &str| Point(names.iter().position(|n| *n == name).expect("board table names") as u8);
        let mut adj = [PointSet::EMPTY; MAX_POINTS];
        let mut link = |a: Point, b: Point| {
            adj[a.index()] = adj[a.index()].with(b);
            adj[b.index()] = adj[b.index()].with(a);
        };
        let mut line_sets = Vec::new();
        for [a, b, c] in &lines {
            let (a, b, c) = (pt(a), pt(b), pt(c));
            line_sets.push(a.bit() | b.bit() | c.bit());
            // Men step along the lines of the square boards; Rota's lines are
            // its diameters, whose steps are the spokes added below.
            if kind != BoardKind::Rota {
                link(a, b);
                link(b, c);
            }
        }
        for [a, b] in &extra_edges {
            link(pt(a), pt(b));
        }
        if centre_spokes {
            for i in 1..names.len() {
                link(Point(0), Point(i as u8));
            }
        }
        if diagonals {
            for corner in ["a1", "c1", "a3", "c3"] {
                link(pt("b2"), pt(corner));
            }
        }
        let mut lines_at: [ArrayVec<PointSet, 4>; MAX_POINTS] = Default::default();
        for &l in &line_sets {
            for p in l {
                lines_at[p.index()].push(l);
            }
        }
        let symmetries = automorphisms(names.len(), &adj, &line_sets);
        Board { kind, diagonals, names, adj, lines: line_sets, lines_at, symmetries }
    }

    /// Number of points.
    #[inline]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Boards are never empty; this exists for the `len` convention.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// All points of the board.
    #[inline]
    pub fn all(&self) -> PointSet {
        PointSet::first_n(self.len())
    }

    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.len() as u8).map(Point)
    }

    /// Men each side starts with.
    #[inline]
    pub fn men(&self) -> u8 {
        self.kind.men()
    }

    /// Whether closing a line wins at once (the boards with three men).
    #[inline]
    pub fn line_wins(&self) -> bool {
        self.men() == 3
    }

    pub fn name(&self, p: Point) -> &'static str {
        self.names[p.index()]
    }

    /// The point with this name, if the board has it.
    pub fn point(&self, name: &str) -> Option<Point> {
        self.names.iter().position(|n| *n == name).map(|i| Point(i as u8))
    }

    /// The points one step from `p`.
    #[inline]
    pub fn neighbours(&self, p: Point) -> PointSet {
        self.adj[p.index()]
    }

    /// The points of one colour when the points take two colours such that
    /// every step along a line changes colour, if they can (six and nine
    /// men's morris: the corners of the outer and inner squares with the
    /// midpoints of the middle one, against the other points); `None` where
    /// a cycle of steps is odd (the wheel of Rota, three men's morris with
    /// diagonals).
    pub fn two_colours(&self) -> Option<PointSet> {
        let mut colour: [Option<bool>; MAX_POINTS] = [None; MAX_POINTS];
        let mut stack = Vec::new();
        for root in self.points() {
            if colour[root.index()].is_some() {
                continue;
            }
            colour[root.index()] = Some(false);
            stack.push(root);
            while let Some(p) = stack.pop() {
                let c = colour[p.index()] == Some(true);
                for q in self.neighbours(p).iter() {
                    match colour[q.index()] {
                        None => {
                            colour[q.index()] = Some(!c);
                            stack.push(q);
                        }
                        Some(d) if d == c => return None,
                        Some(_) => {}
                    }
                }
            }
        }
        Some(self.points().filter(|p| colour[p.index()] == Some(true)).fold(PointSet::EMPTY, |s, p| s.with(p)))
    }

    /// All lines (mills) of the board.
    pub fn lines(&self) -> &[PointSet] {
        &self.lines
    }

    /// The lines through `p`.
    #[inline]
    pub fn lines_at(&self, p: Point) -> &[PointSet] {
        &self.lines_at[p.index()]
    }

    /// The board's symmetries (the identity first).
    pub fn symmetries(&self) -> &[Symmetry] {
        &self.symmetries
    }

    /// The name used in option lists: `three` with diagonals reads
    /// `three+diagonals`.
    pub fn label(&self) -> String {
        if self.diagonals { format!("{}+diagonals", self.kind) } else { self.kind.to_string() }
    }
}

#[cfg(test)]
mod colour_tests {
    use super::*;

    /// Every step of the boards that take two colours joins points of both;
    /// the wheel and the diagonals of three men's morris close odd cycles.
    #[test]
    fn two_colours_where_every_cycle_of_steps_is_even() {
        for (kind, diagonals, bipartite) in [
            (BoardKind::Nine, false, true),
            (BoardKind::Six, false, true),
            (BoardKind::Three, false, true),
            (BoardKind::Three, true, false),
            (BoardKind::Rota, false, false),
        ] {
            let board = Board::get(kind, diagonals);
            let colours = board.two_colours();
            assert_eq!(colours.is_some(), bipartite, "{kind:?}");
            if let Some(one) = colours {
                assert!(!one.is_empty() && one.len() < board.len() as u32);
                for p in board.points() {
                    for q in board.neighbours(p).iter() {
                        assert_ne!(one.contains(p), one.contains(q), "{kind:?}: a step inside one colour");
                    }
                }
            }
        }
    }
}
