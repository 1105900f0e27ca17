//! The thesis's claims about the armies, computed from their values and the
//! board (`../shared/seeds/002…`, Necek 1998): every capture by encounter,
//! sally and ambush that the values allow (its Tables 2 and 3), the pieces
//! that only a siege can take, and the reasons behind a capture played in a
//! game (for counting captures by kind).
//!
//! The tables look at values alone: which piece could take which if the
//! board let them meet. A sally needs `n` empty squares between attacker and
//! target, `n` at least the rules' minimum; the gap must fit on a file
//! (at most 14 squares between) or, for `n ≤ 6`, on a rank too.

use serde::Serialize;

use super::moves::{Move, MoveKind, MoveList};
use super::piece::{Shape, Side};
use super::position::Position;
use super::rules::RuleSet;
use super::square::Square;

/// The most empty squares between two pieces on a file (16 ranks).
pub const MAX_GAP_FILE: u32 = 14;
/// The most on a rank (8 files).
pub const MAX_GAP_RANK: u32 = 6;

/// One value a side attacks with, and the pieces that have it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Attacker {
    pub value: u32,
    /// The pieces attacking with it: `C4`, `P91` (whole) or `P91:C4` (a layer).
    pub pieces: Vec<String>,
    /// Only a pyramid attacks with it (a layer or the whole).
    pub pyramid_only: bool,
    /// The squares of those pieces, and whether each is a pyramid.
    #[serde(skip)]
    holders: Vec<(Square, bool)>,
}

impl Attacker {
    /// Whether this value and `b`'s are held by two different pieces (men
    /// only, unless `with_pyramid`).
    fn pair(&self, b: &Attacker, with_pyramid: bool) -> bool {
        self.holders.iter().any(|&(x, px)| b.holders.iter().any(|&(y, py)| x != y && (with_pyramid || !(px || py))))
    }

    /// Whether a man (not a pyramid) holds it.
    fn by_man(&self) -> bool {
        self.holders.iter().any(|&(_, p)| !p)
    }
}

/// What can be taken: a man, a whole pyramid (at its full total or after
/// strikes), or a pyramid's layer (struck while at the bottom).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// `t12`, `p190`, `p190 after 2 strikes`, `p190:t36`.
    pub label: String,
    pub value: u32,
    pub kind: TargetKind,
}

/// In JSON an object of one shape for every kind: `{"type": "man"}`,
/// `{"type": "pyramid", "strikes": 2}`, `{"type": "layer"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum TargetKind {
    Man,
    /// A whole pyramid after `strikes` of its layers were struck.
    Pyramid {
        strikes: u32,
    },
    /// A pyramid's layer, taken by a strike (never the top one: alone, it
    /// goes with its pyramid).
    Layer,
}

/// The attack values of a side's pieces on the board, by value.
pub fn attackers(pos: &Position, rules: &RuleSet, side: Side) -> Vec<Attacker> {
    let mut by: Vec<(u32, String, Square, bool)> = Vec::new();
    for s in pos.occupied(side).iter() {
        match pos.pyramid_at(s) {
            None => {
                let shape = pos.shape_of(s);
                by.push((pos.value_at(s) as u32, format!("{}{}", shape.letter(side), pos.value_at(s)), s, false));
            }
            Some(p) => {
                let name = format!("{}{}", Shape::Pyramid.letter(side), p.total());
                for m in p.layers() {
                    by.push((m.value() as u32, format!("{name}:{}", m.token(side)), s, true));
                }
                if p.intact && rules.pyramid_attacks_with_total {
                    by.push((p.original as u32, name, s, true));
                }
            }
        }
    }
    by.sort();
    let mut out: Vec<Attacker> = Vec::new();
    for (value, piece, s, pyr) in by {
        match out.last_mut() {
            Some(a) if a.value == value => {
                a.pieces.push(piece);
                a.holders.push((s, pyr));
                a.pyramid_only &= pyr;
            }
            _ => out.push(Attacker { value, pieces: vec![piece], pyramid_only: pyr, holders: vec![(s, pyr)] }),
        }
    }
    out
}

/// A side's pieces as targets: its men, each pyramid whole (at its full
/// total and after each possible number of strikes), and each layer a strike
/// can take (every one but the top).
pub fn targets(pos: &Position, rules: &RuleSet, side: Side) -> Vec<Target> {
    let mut out = Vec::new();
    for s in pos.occupied(side).iter() {
        match pos.pyramid_at(s) {
            None => {
                let v = pos.value_at(s);
                let label = format!("{}{v}", pos.shape_of(s).letter(side));
                out.push(Target { label, value: v as u32, kind: TargetKind::Man });
            }
            Some(p) => {
                let name = format!("{}{}", Shape::Pyramid.letter(side), p.total());
                let layers = p.layers();
                for k in 0..layers.len() {
                    let rest: u32 = layers[k..].iter().map(|m| m.value() as u32).sum();
                    let label = if k == 0 {
                        name.clone()
                    } else {
                        format!("{name} after {}", crate::names::count(k as u64, "strike", "strikes"))
                    };
                    // Without strikes only the full total is ever a target.
                    if k == 0 || rules.pyramid_strikes {
                        out.push(Target { label, value: rest, kind: TargetKind::Pyramid { strikes: k as u32 } });
                    }
                }
                // A layer is struck while at the bottom of two or more: the
                // top one never is (alone, it goes with the pyramid).
                let struck = if rules.pyramid_strikes { &layers[..layers.len() - 1] } else { &[][..] };
                for m in struck {
                    let label = format!("{name}:{}", m.token(side));
                    out.push(Target { label, value: m.value() as u32, kind: TargetKind::Layer });
                }
            }
        }
    }
    out
}

/// A capture by sally the values allow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SallyRow {
    pub attacker: u32,
    pub by: Vec<String>,
    pub pyramid_only: bool,
    /// Empty squares between.
    pub between: u32,
    /// Whether the gap fits on a rank too (else only on a file).
    pub on_rank: bool,
    pub target: String,
    pub target_value: u32,
    pub target_kind: TargetKind,
}

/// A capture by ambush the values allow: two different pieces' values add up
/// to the target's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AmbushRow {
    pub a: u32,
    pub b: u32,
    pub by_a: Vec<String>,
    pub by_b: Vec<String>,
    /// Only possible with a pyramid's value on one side of the sum.
    pub pyramid_only: bool,
    pub target: String,
    pub target_value: u32,
    pub target_kind: TargetKind,
}

/// A capture by encounter the values allow: equal values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EncounterRow {
    pub value: u32,
    pub by: Vec<String>,
    pub pyramid_only: bool,
    pub target: String,
    pub target_kind: TargetKind,
}

/// Which targets the tables list: men, whole pyramids at their full total,
/// and layers (strikes). Pyramids after strikes appear in [`SiegeOnly`].
fn tabled(t: &Target) -> bool {
    !matches!(t.kind, TargetKind::Pyramid { strikes } if strikes > 0)
}

/// Every sally by `side` the values allow.
pub fn sallies(pos: &Position, rules: &RuleSet, side: Side) -> Vec<SallyRow> {
    let atk = attackers(pos, rules, side);
    let mut out = Vec::new();
    for t in targets(pos, rules, side.other()).iter().filter(|t| tabled(t)) {
        for a in &atk {
            for n in rules.sally_min_between as u32..=MAX_GAP_FILE {
                if a.value * n == t.value {
                    out.push(SallyRow {
                        attacker: a.value,
                        by: a.pieces.clone(),
                        pyramid_only: a.pyramid_only,
                        between: n,
                        on_rank: n <= MAX_GAP_RANK,
                        target: t.label.clone(),
                        target_value: t.value,
                        target_kind: t.kind,
                    });
                }
            }
        }
    }
    out.sort_by_key(|r| (r.target_value, r.attacker, r.target.clone()));
    // Two pieces of one label (two c9) make one row.
    out.dedup();
    out
}

/// Every ambush by `side` the values allow: pairs of values `a ≤ b` held by
/// two different pieces.
pub fn ambushes(pos: &Position, rules: &RuleSet, side: Side) -> Vec<AmbushRow> {
    let atk = attackers(pos, rules, side);
    let mut out = Vec::new();
    for t in targets(pos, rules, side.other()).iter().filter(|t| tabled(t)) {
        for (i, a) in atk.iter().enumerate() {
            for b in &atk[i..] {
                if a.value + b.value != t.value || !a.pair(b, true) {
                    continue;
                }
                out.push(AmbushRow {
                    a: a.value,
                    b: b.value,
                    by_a: a.pieces.clone(),
                    by_b: b.pieces.clone(),
                    pyramid_only: !a.pair(b, false),
                    target: t.label.clone(),
                    target_value: t.value,
                    target_kind: t.kind,
                });
            }
        }
    }
    out.sort_by_key(|r| (r.target_value, r.a, r.target.clone()));
    out.dedup();
    out
}

/// Every encounter by `side` the values allow.
pub fn encounters(pos: &Position, rules: &RuleSet, side: Side) -> Vec<EncounterRow> {
    let atk = attackers(pos, rules, side);
    let mut out = Vec::new();
    for t in targets(pos, rules, side.other()).iter().filter(|t| tabled(t)) {
        for a in atk.iter().filter(|a| a.value == t.value) {
            out.push(EncounterRow {
                value: a.value,
                by: a.pieces.clone(),
                pyramid_only: a.pyramid_only,
                target: t.label.clone(),
                target_kind: t.kind,
            });
        }
    }
    out.sort_by_key(|r| (r.value, r.target.clone()));
    out.dedup();
    out
}

/// A target's standing against encounter, sally and ambush.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SiegeOnly {
    pub target: String,
    pub value: u32,
    pub kind: TargetKind,
    /// No encounter, sally or ambush by any enemy value can take it.
    pub siege_only: bool,
    /// The same when the enemy's pyramid is left out of the attackers.
    pub siege_only_without_pyramid: bool,
}

/// Every target of `side` with whether only a siege can take it.
pub fn siege_only(pos: &Position, rules: &RuleSet, side: Side) -> Vec<SiegeOnly> {
    let atk = attackers(pos, rules, side.other());
    let takes = |with_pyramid: bool, t: u32| -> bool {
        let vals: Vec<&Attacker> = atk.iter().filter(|a| with_pyramid || a.by_man()).collect();
        let enc = rules.encounter && vals.iter().any(|a| a.value == t);
        let sal = rules.sally
            && vals.iter().any(|a| (rules.sally_min_between as u32..=MAX_GAP_FILE).any(|n| a.value * n == t));
        let amb = rules.ambush
            && vals
                .iter()
                .enumerate()
                .any(|(i, a)| vals[i..].iter().any(|b| a.value + b.value == t && a.pair(b, with_pyramid)));
        enc || sal || amb
    };
    targets(pos, rules, side)
        .into_iter()
        .map(|t| SiegeOnly {
            siege_only: !takes(true, t.value),
            siege_only_without_pyramid: !takes(false, t.value),
            target: t.label,
            value: t.value,
            kind: t.kind,
        })
        .collect()
}

/// Why a capture or strike is legal: which of encounter, sally and ambush
/// allow it (several may).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Reasons {
    pub encounter: bool,
    pub sally: bool,
    pub ambush: bool,
}

/// The reasons for a capture or strike `m` legal in `pos`: each kind of
/// capture alone, by the move generator with the other kinds switched off.
pub fn reasons(pos: &Position, rules: &RuleSet, m: Move) -> Reasons {
    if m.kind == MoveKind::Plain {
        return Reasons::default();
    }
    let only = |e: bool, s: bool, a: bool| {
        let r =
            RuleSet { encounter: e && rules.encounter, sally: s && rules.sally, ambush: a && rules.ambush, ..*rules };
        let mut v = MoveList::new();
        pos.captures(&r, &mut v);
        v.contains(&m)
    };
    Reasons { encounter: only(true, false, false), sally: only(false, true, false), ambush: only(false, false, true) }
}

/// The captures of games by kind, counted in pieces taken (a whole pyramid
/// is one piece), beside the men they took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub encounter: u64,
    pub sally: u64,
    pub ambush: u64,
    pub siege: u64,
    pub strike: u64,
    /// Captures that more than one reason allowed (each counted once above,
    /// under the first of encounter, sally, ambush that applies).
    pub several_reasons: u64,
    /// Men taken in all (every pyramid layer counts one).
    pub men: u64,
}

impl Tally {
    /// Pieces taken in all.
    pub fn total(&self) -> u64 {
        self.encounter + self.sally + self.ambush + self.siege + self.strike
    }

    pub fn add(&mut self, o: &Tally) {
        self.encounter += o.encounter;
        self.sally += o.sally;
        self.ambush += o.ambush;
        self.siege += o.siege;
        self.strike += o.strike;
        self.several_reasons += o.several_reasons;
        self.men += o.men;
    }

    /// Counts one move played in `pos` (legal there).
    pub fn count(&mut self, pos: &Position, rules: &RuleSet, m: Move) -> Position {
        let mut next = *pos;
        let before = pos.captured_by(pos.side_to_move()).count();
        match m.kind {
            MoveKind::Plain => {}
            MoveKind::Strike => self.strike += 1,
            MoveKind::Capture => {
                let r = reasons(pos, rules, m);
                if (r.encounter as u8 + r.sally as u8 + r.ambush as u8) > 1 {
                    self.several_reasons += 1;
                }
                if r.encounter {
                    self.encounter += 1;
                } else if r.sally {
                    self.sally += 1;
                } else {
                    self.ambush += 1;
                }
            }
        }
        let sieged = next.play_in_place(m, rules);
        self.siege += sieged.count() as u64;
        self.men += (next.captured_by(pos.side_to_move()).count() - before) as u64;
        next
    }

    /// The tally of a game from `start`; its moves must be legal.
    pub fn of_game(start: &Position, rules: &RuleSet, moves: &[Move]) -> Tally {
        let mut t = Tally::default();
        let mut pos = *start;
        for &m in moves {
            pos = t.count(&pos, rules, m);
        }
        t
    }
}
