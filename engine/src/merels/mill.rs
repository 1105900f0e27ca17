//! Mills: lines of three men of one side, which ones a man closes, and which
//! enemy men may then be removed.

use smallvec::SmallVec;

use super::board::Board;
use super::point::{Point, PointSet};

/// Whether `men` fill some line of the board.
#[inline]
pub fn has_line(board: &Board, men: PointSet) -> bool {
    board.lines().iter().any(|&l| l.is_subset(men))
}

/// The number of lines through `p` that `men` (which include `p`) fill.
#[inline]
pub fn mills_closed_at(board: &Board, men: PointSet, p: Point) -> u32 {
    board.lines_at(p).iter().filter(|&&l| l.is_subset(men)).count() as u32
}

/// The points of `empty` where one more man of `men` would fill a line:
/// the third point of each line holding two of them.
#[inline]
pub fn closing_points(board: &Board, men: PointSet, empty: PointSet) -> PointSet {
    board.lines().iter().fold(PointSet::EMPTY, |acc, &l| {
        let rest = l - men;
        if rest.len() == 1 && rest.is_subset(empty) { acc | rest } else { acc }
    })
}

/// The men of `men` that stand in a mill.
#[inline]
pub fn men_in_mills(board: &Board, men: PointSet) -> PointSet {
    board.lines().iter().filter(|&&l| l.is_subset(men)).fold(PointSet::EMPTY, |acc, &l| acc | l)
}

/// The enemy men one removal may take: any, or with `no_take_from_mills`
/// only those outside mills unless every one stands in a mill.
#[inline]
pub fn removable(board: &Board, enemy: PointSet, no_take_from_mills: bool) -> PointSet {
    if !no_take_from_mills {
        return enemy;
    }
    let free = enemy - men_in_mills(board, enemy);
    if free.is_empty() { enemy } else { free }
}

/// Every set of men that `count` successive removals can take from `enemy`
/// (fewer when the enemy has fewer men), each removal obeying the rule as the
/// board stands at that moment. Sets are distinct; an empty `count` yields the
/// empty set once.
pub fn removal_sets(board: &Board, enemy: PointSet, count: u32, no_take_from_mills: bool) -> SmallVec<[PointSet; 16]> {
    let mut out: SmallVec<[PointSet; 16]> = SmallVec::new();
    let count = count.min(enemy.len());
    if !no_take_from_mills {
        // Without restrictions the sets are simply all subsets of that size.
        subsets(enemy, count, PointSet::EMPTY, &mut out);
        return out;
    }
    sequential(board, enemy, count, PointSet::EMPTY, &mut out);
    out.sort_unstable();
    out.dedup();
    out
}

fn subsets(pool: PointSet, k: u32, taken: PointSet, out: &mut SmallVec<[PointSet; 16]>) {
    if k == 0 {
        out.push(taken);
        return;
    }
    // Choose the lowest point of the set in increasing order: each subset once.
    let mut rest = pool;
    while let Some(p) = rest.first_point() {
        rest = rest.without(p);
        if rest.len() + 1 < k {
            break;
        }
        subsets(rest, k - 1, taken.with(p), out);
    }
}

fn sequential(board: &Board, enemy: PointSet, k: u32, taken: PointSet, out: &mut SmallVec<[PointSet; 16]>) {
    if k == 0 {
        out.push(taken);
        return;
    }
    for p in removable(board, enemy, true) {
        sequential(board, enemy.without(p), k - 1, taken.with(p), out);
    }
}
