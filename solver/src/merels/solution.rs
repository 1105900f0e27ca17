//! A solved game: one table per sector, and the queries on it.

use std::sync::Arc;

use engine::merels::{Action, Blocked, Rules, State, Throw};
use fxhash::FxHashMap;

use super::index::{BoardTables, Indexer};
use super::retro::{forward, retrograde, valid};
use super::sector::{Sector, solve_order};
use super::value::{Packed, UNUSED, Value, unpack};

/// Receives progress reports from long work (the CLI draws progress bars).
pub trait Observer: Sync {
    /// A new stage of `total` units of work begins.
    fn begin(&self, _label: &str, _total: u64) {}
    fn advance(&self, _n: u64) {}
    fn finish(&self) {}
    /// A sector group is about to be solved: `done` of `groups` are finished.
    fn group(&self, _sectors: &[Sector], _done: usize, _groups: usize) {}
}

/// Reports nothing.
pub struct Silent;
impl Observer for Silent {}

/// The solved values of one sector.
pub struct Table {
    pub indexer: Indexer,
    values: Vec<Packed>,
}

impl Table {
    pub(crate) fn dtm(indexer: Indexer, values: Vec<Packed>) -> Table {
        Table { indexer, values }
    }

    /// The value of a state of this sector.
    #[inline]
    pub fn get(&self, st: &State) -> Value {
        unpack(self.values[self.indexer.index(st) as usize])
    }

    /// The packed values by index (`UNUSED` where no position maps).
    pub fn packed(&self) -> &[Packed] {
        &self.values
    }

    /// Positions in the table (indices a position maps to).
    pub fn positions(&self) -> u64 {
        self.values.iter().filter(|&&v| v != UNUSED).count() as u64
    }
}

/// Every sector of a game reachable from its start, solved.
pub struct Solution {
    pub rules: Rules,
    pub board_tables: Arc<BoardTables>,
    tables: FxHashMap<Sector, Table>,
    /// Groups in the order they were solved.
    order: Vec<Vec<Sector>>,
}

impl Solution {
    /// Solves every sector reachable from the start.
    pub fn solve(rules: Rules, obs: &dyn Observer) -> Solution {
        assert_eq!(rules.dice, engine::merels::Dice::None, "chance is solved by the chance solver");
        let board_tables = BoardTables::new(rules.board);
        let order = solve_order(&rules);
        let mut sol = Solution { rules, board_tables, tables: FxHashMap::default(), order: order.clone() };
        let groups = order.len();
        for (done, group) in order.into_iter().enumerate() {
            obs.group(&group, done, groups);
            let ix: Vec<Indexer> = group.iter().map(|&s| Indexer::new(sol.board_tables.clone(), s)).collect();
            let cyclic = group.len() > 1 || super::sector::successors(&rules, group[0]).contains(&group[0]);
            let tables = if cyclic {
                retrograde(&rules, &sol, ix, obs)
            } else {
                vec![forward(&rules, &sol, ix.into_iter().next().expect("one sector"), obs)]
            };
            for t in tables {
                sol.tables.insert(t.indexer.sector(), t);
            }
        }
        sol
    }

    /// The stored value of a state (a lost state needs no table). `None` when
    /// the state is impossible or outside the solved sectors.
    pub fn value(&self, st: &State) -> Option<Value> {
        if self.rules.lost(st) {
            return Some(Value::Loss(0));
        }
        if !valid(self.rules.board, st) {
            return None;
        }
        let t = self.tables.get(&Sector::of(st))?;
        Some(t.get(st))
    }

    /// The value of a state computed from its successors' stored values.
    pub fn evaluate(&self, st: &State) -> Value {
        if self.rules.lost(st) {
            return Value::Loss(0);
        }
        let mut best: Option<Value> = None;
        self.rules.for_each_action(st, Throw::None, |_, child| {
            let v = self.value(&child).expect("successor solved").back();
            best = Some(best.map_or(v, |b| b.max(v)));
        });
        best.unwrap_or(match self.rules.blocked {
            Blocked::Draw => Value::Draw,
            _ => Value::Loss(0),
        })
    }

    /// Every legal action with the value it leads to for the side to move,
    /// best first.
    pub fn rate_actions(&self, st: &State) -> Vec<(Action, Value)> {
        let mut v: Vec<(Action, Value)> = self
            .rules
            .actions(st, Throw::None)
            .into_iter()
            .map(|(a, child)| (a, self.value(&child).expect("successor solved").back()))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }

    /// The solved sectors with their tables.
    pub fn tables(&self) -> impl Iterator<Item = (&Sector, &Table)> {
        self.tables.iter()
    }

    pub fn table(&self, s: Sector) -> Option<&Table> {
        self.tables.get(&s)
    }

    /// The sector groups in solving order.
    pub fn order(&self) -> &[Vec<Sector>] {
        &self.order
    }
}
