//! Move generation for the side to move, and playing a move (its capture or
//! strike, then the sieges it causes).
//!
//! Everything starts from the geometry of one position, computed once in
//! bitboards: for each direction and distance, where a move would find its
//! way open. Plain moves are read off it; the enemy pieces that a regular
//! move reaches, or that stand at the end of a free line (a possible sally),
//! are the only ones examined for captures.

use super::bitboard::{Bitboard, Dir};
use super::moves::{Move, MoveKind, MoveList};
use super::piece::{Shape, Side};
use super::position::{Position, Snapshot};
use super::rules::{RuleSet, Victory};
use super::sally::Lines;
use super::square::Square;
use super::{ambush, encounter, sally, siege};

/// The enemy pieces regular moves reach: by the distance group (the
/// rules' `j`-th distance) and direction of the move, and those reached by
/// two moves or more.
pub(crate) struct Reach {
    pub by: [[Bitboard; 4]; 4],
    pub twice: Bitboard,
}

/// Captures and strikes found so far (appended to a list, perhaps after
/// other moves), and what finding them needs.
pub(crate) struct Hits<'a> {
    pub pos: &'a Position,
    pub rules: &'a RuleSet,
    pub pyramids: Bitboard,
    pub caps: &'a mut MoveList,
    /// A man moved from `.0` to `.1` since `pos` (the board is read as after
    /// that move), or two squares off the board.
    pub moved: (Square, Square),
}

/// No move since the position.
pub(crate) const UNMOVED: (Square, Square) = (Square(u8::MAX), Square(u8::MAX));

impl Hits<'_> {
    /// The value of the piece on `s` (a pyramid's current total).
    #[inline(always)]
    pub fn value_at(&self, s: Square) -> u16 {
        self.pos.value_at(if s == self.moved.1 { self.moved.0 } else { s })
    }

    /// The piece on `from` attacking the enemy piece on `t` with each of its
    /// attack values times `times` (1 for an encounter, the squares between
    /// for a sally): a capture at the target's whole value, a strike at the
    /// bottom layer of a pyramid of two or more.
    #[inline(always)]
    pub fn attack(&mut self, from: Square, t: Square, times: u32) {
        let pos = self.pos;
        let whole = self.value_at(t) as u32;
        let man = self.value_at(from);
        let bottom = if self.pyramids.contains(t) {
            match pos.pyramid_at(t) {
                Some(p) if self.rules.pyramid_strikes && p.len >= 2 => p.bottom().value() as u32,
                _ => u32::MAX,
            }
        } else {
            u32::MAX
        };
        let mut try_value = |a: u32| {
            if a == whole {
                self.caps.push(Move::new(from, t, MoveKind::Capture));
            }
            if a == bottom {
                self.caps.push(Move::new(from, t, MoveKind::Strike));
            }
        };
        if self.pyramids.contains(from) {
            for &a in pos.attack_values(from, self.rules.pyramid_attacks_with_total).values() {
                try_value(a as u32 * times);
            }
        } else {
            try_value(man as u32 * times);
        }
    }
}

/// Whether the processor has BMI1/2, LZCNT and POPCNT (detected once).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn bit_instructions() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0: not yet asked, 1: without, 2: with.
    static HAS: AtomicU8 = AtomicU8::new(0);
    match HAS.load(Ordering::Relaxed) {
        0 => {
            let has = std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("bmi2")
                && std::is_x86_feature_detected!("lzcnt")
                && std::is_x86_feature_detected!("popcnt");
            HAS.store(1 + has as u8, Ordering::Relaxed);
            has
        }
        h => h == 2,
    }
}

/// Calls `body(args)`, an `#[inline(always)]` function, through a copy of it
/// compiled for the bit-manipulation instructions (POPCNT, LZCNT, TZCNT on
/// 128-bit boards) when the processor has them, chosen at run time; the
/// expansion returns from the enclosing function.
macro_rules! with_bit_instructions {
    ($body:ident($($arg:ident: $ty:ty),*) -> $ret:ty) => {{
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
            fn fast($($arg: $ty),*) -> $ret {
                $body($($arg),*)
            }
            if $crate::rithmo::movegen::bit_instructions() {
                // SAFETY: the processor has the features `fast` is built for.
                return unsafe { fast($($arg),*) };
            }
        }
        $body($($arg),*)
    }};
}
#[allow(unused_imports)]
pub(crate) use with_bit_instructions;

/// Where regular moves find their way open, for every direction and
/// distance up to the rules' longest: `open(d, k)` holds the squares from
/// which the squares at distances `1..=k` in direction `d` are on the
/// board and empty (`k = 0`: every square).
pub(crate) struct Paths {
    /// By direction and distance; distances beyond the longest are empty.
    open: [[Bitboard; 8]; 4],
}

impl Paths {
    /// The paths over the `free` squares, up to distance `max` (1 to 4).
    #[inline(always)]
    pub fn new(free: Bitboard, max: u8) -> Paths {
        // Each direction with fixed shifts.
        let along = |d: Dir| {
            let back = d.opposite();
            let o1 = free.shift(back, 1);
            let o2 = o1 & free.shift(back, 2);
            let o3 = o2 & free.shift(back, 3);
            let o4 = if max > 3 { o3 & free.shift(back, 4) } else { Bitboard::EMPTY };
            let e = Bitboard::EMPTY;
            [Bitboard::FULL, o1, o2, o3, o4, e, e, e]
        };
        Paths { open: [along(Dir::North), along(Dir::South), along(Dir::East), along(Dir::West)] }
    }

    #[inline(always)]
    pub fn open(&self, d: Dir, k: u8) -> Bitboard {
        self.open[d as usize][k as usize & 7]
    }

    /// The squares from which a move of `k` is open in some direction.
    #[inline(always)]
    pub fn any(&self, k: u8) -> Bitboard {
        self.open(Dir::North, k) | self.open(Dir::South, k) | self.open(Dir::East, k) | self.open(Dir::West, k)
    }
}

/// The pieces among `among` by the distance they move (index 1 to 4).
#[inline(always)]
fn by_distance(pos: &Position, rules: &RuleSet, among: Bitboard) -> [Bitboard; 8] {
    let mut m = [Bitboard::EMPTY; 8];
    for shape in Shape::ALL {
        m[rules.distance(shape) as usize & 7] |= pos.shape_bb(shape) & among;
    }
    m
}

/// The board as one side sees it: its pieces by the distance they move,
/// the enemy's pieces, and the free squares; perhaps one plain move of a
/// man after the position it is read from (`moved`, see [`Hits`]).
struct Sides<'a> {
    own: Bitboard,
    enemy: Bitboard,
    movers: &'a [Bitboard; 8],
    moved: (Square, Square),
}

/// Every move of the side to move: the plain ones by distance (longest
/// first), direction and square, then the captures and strikes in order.
#[inline(always)]
fn generate_body(pos: &Position, rules: &RuleSet, onto: Bitboard, out: &mut MoveList) {
    let paths = Paths::new(!pos.all(), rules.max_distance());
    let (own, enemy) = (pos.occupied(pos.side_to_move()), pos.occupied(pos.side_to_move().other()));
    let movers = by_distance(pos, rules, own);
    let sides = Sides { own, enemy, movers: &movers, moved: UNMOVED };
    for &k in &rules.distances[..rules.n_distances as usize] {
        for dir in Dir::ALL {
            let landing = onto.shift(dir.opposite(), k);
            for from in (sides.movers[k as usize & 7] & paths.open(dir, k) & landing).iter() {
                let to = Square((from.0 as i16 + dir.delta() as i16 * k as i16) as u8);
                out.push(Move::new(from, to, MoveKind::Plain));
            }
        }
    }
    each_capture(pos, rules, &sides, None, out);
}

/// The squares from which the squares at distances 1, 2, 3 and 4 (up to
/// `max`) in direction `d` are on the board and empty, in turn; index 0 is
/// every square.
#[inline(always)]
fn open_along(free: Bitboard, d: Dir, max: u8) -> [Bitboard; 5] {
    let back = d.opposite();
    let o1 = free.shift(back, 1);
    let o2 = o1 & free.shift(back, 2);
    let o3 = o2 & free.shift(back, 3);
    let mut o4 = Bitboard::EMPTY;
    if max > 3 {
        o4 = o3 & free.shift(back, 4);
    }
    [Bitboard::FULL, o1, o2, o3, o4]
}

/// The plain moves of `movers` (by distance) over the `free` squares,
/// counted by population.
#[inline(always)]
fn plain_count(rules: &RuleSet, free: Bitboard, movers: &[Bitboard; 8]) -> usize {
    let max = rules.max_distance();
    let [_, m1, m2, m3, m4, ..] = *movers;
    let mut n = 0;
    crate::each_dir!(D => {
        let [_, o1, o2, o3, o4] = open_along(free, D, max);
        n += (m1 & o1).count() + (m2 & o2).count() + (m3 & o3).count();
        if max > 3 {
            n += (m4 & o4).count();
        }
    });
    n as usize
}

/// The pieces of `movers` (by distance) none of whose moves is open over
/// `paths`.
#[inline(always)]
fn stuck(rules: &RuleSet, paths: &Paths, movers: &[Bitboard; 8]) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for &k in &rules.distances[..rules.n_distances as usize] {
        out |= movers[k as usize & 7] - paths.any(k);
    }
    out
}

/// The number of legal moves: the plain ones counted by population, the
/// captures found (the sallies off the lines a move changed known before
/// it, if `known`).
#[inline(always)]
fn count_body(pos: &Position, rules: &RuleSet, known: Option<(&sally::Known, Lines)>) -> usize {
    if pos.is_over(rules) {
        return 0;
    }
    let (own, enemy) = (pos.occupied(pos.side_to_move()), pos.occupied(pos.side_to_move().other()));
    let movers = by_distance(pos, rules, own);
    let sides = Sides { own, enemy, movers: &movers, moved: UNMOVED };
    let n = plain_count(rules, !(own | enemy), &movers);
    let mut caps = MoveList::new();
    each_capture(pos, rules, &sides, known, &mut caps);
    n + caps.len()
}

#[inline(always)]
fn captures_body(pos: &Position, rules: &RuleSet, side: Side, out: &mut MoveList) {
    let (own, enemy) = (pos.occupied(side), pos.occupied(side.other()));
    let movers = by_distance(pos, rules, own);
    each_capture(pos, rules, &Sides { own, enemy, movers: &movers, moved: UNMOVED }, None, out);
}

/// The moves of the replies to each move of a position, counted: what
/// perft needs at its last two plies. A plain move of a man that besieges
/// nothing changes little, and the replies are counted from the position
/// before it without playing it; other moves are played and taken back.
/// Either way the replies' sallies off the lines a move changes carry over.
pub(crate) struct Replies {
    known: sally::Known,
    /// The replier's pieces by the distance they move.
    movers: [Bitboard; 8],
    /// Whether a quiet move ends the game (the mover's victory by the men
    /// it has taken, or the quiet-ply limit).
    quiet_ends: bool,
    /// Whether the victory depends on the men taken alone (a proper
    /// victory depends on the board: such moves are played).
    by_count: bool,
}

impl Replies {
    pub fn new(pos: &Position, rules: &RuleSet) -> Replies {
        let mover = pos.side_to_move();
        let replier = mover.other();
        let by_count = !matches!(rules.victory, Victory::Great | Victory::Greater | Victory::Excellent);
        let limit = rules.quiet_plies_draw;
        Replies {
            known: sally::Known::new(pos, rules, replier),
            movers: by_distance(pos, rules, pos.occupied(replier)),
            quiet_ends: by_count && pos.victory_by(rules, mover) || limit > 0 && pos.clock.saturating_add(1) >= limit,
            by_count,
        }
    }

    /// The number of legal replies to each of `moves` (legal in `pos`,
    /// which it leaves as it was), in all.
    pub fn count(&self, pos: &mut Position, rules: &RuleSet, moves: &[Move]) -> u64 {
        let replies = self;
        with_bit_instructions!(count_replies(replies: &Replies, pos: &mut Position, rules: &RuleSet, moves: &[Move]) -> u64)
    }
}

#[inline(always)]
fn count_replies(replies: &Replies, pos: &mut Position, rules: &RuleSet, moves: &[Move]) -> u64 {
    let mut snap = Snapshot::default();
    let mut n = 0;
    for &m in moves {
        if replies.by_count
            && m.kind == MoveKind::Plain
            && !pos.shape_bb(Shape::Pyramid).contains(m.from)
            && let Some(k) = quiet_count(pos, rules, replies, m)
        {
            n += k as u64;
            continue;
        }
        pos.make_into(m, rules, &mut snap);
        let changed = Lines::through(snap.removed().with(m.from).with(m.to));
        n += pos.count_moves_knowing(rules, &replies.known, changed) as u64;
        pos.unmake(m, &snap);
    }
    n
}

/// The replies to the plain move `m` of a man, counted without playing it;
/// `None` if it besieges something.
#[inline(always)]
fn quiet_count(pos: &Position, rules: &RuleSet, replies: &Replies, m: Move) -> Option<usize> {
    let mover = pos.side_to_move();
    let moved = Bitboard::from_square(m.from) | Bitboard::from_square(m.to);
    let sides = Sides {
        own: pos.occupied(mover.other()),
        enemy: pos.occupied(mover) ^ moved,
        movers: &replies.movers,
        moved: (m.from, m.to),
    };
    let free = !(sides.own | sides.enemy);
    // The replier's pieces that touch the mover's and cannot move are
    // besieged.
    if rules.siege {
        let e = sides.enemy;
        let touching = (e.step(Dir::North) | e.step(Dir::South) | e.step(Dir::East) | e.step(Dir::West)) & sides.own;
        if !touching.is_empty()
            && !(touching & stuck(rules, &Paths::new(free, rules.max_distance()), sides.movers)).is_empty()
        {
            return None;
        }
    }
    let n = plain_count(rules, free, sides.movers);
    if replies.quiet_ends {
        return Some(0);
    }
    let mut caps = MoveList::new();
    let changed = Lines::of_move(m);
    each_capture(pos, rules, &sides, Some((&replies.known, changed)), &mut caps);
    Some(n + caps.len())
}

/// Appends the captures and strikes by encounter, ambush and sally to
/// `out`, sorted, each (from, to, kind) once however many reasons allow it.
#[inline(always)]
fn each_capture(
    pos: &Position,
    rules: &RuleSet,
    sides: &Sides,
    known: Option<(&sally::Known, Lines)>,
    out: &mut MoveList,
) {
    let (own, enemy, movers) = (sides.own, sides.enemy, sides.movers);
    if own.is_empty() || enemy.is_empty() {
        return;
    }
    // The ranks each army spans: armies further apart than the longest
    // move cannot meet by a regular move (no encounter, no ambush), and
    // armies on no common rank cannot sally along a rank.
    let (own_lo, own_hi) = own.rank_span();
    let (enemy_lo, enemy_hi) = enemy.rank_span();
    let reach_d = rules.max_distance();
    let apart = enemy_lo > own_hi + reach_d || own_lo > enemy_hi + reach_d;
    let common_rank = own.spans_meet(enemy);
    let first = out.len();
    let mut hits = Hits { pos, rules, pyramids: pos.shape_bb(Shape::Pyramid), caps: out, moved: sides.moved };
    if (rules.encounter || rules.ambush) && !apart {
        // Enemy pieces a regular move reaches, by distance and direction;
        // those reached twice or more may fall to an ambush.
        let mut reach = Reach { by: [[Bitboard::EMPTY; 4]; 4], twice: Bitboard::EMPTY };
        let mut once = Bitboard::EMPTY;
        let free = !(own | enemy);
        crate::each_dir!(D => {
            let o = open_along(free, D, reach_d);
            for j in 0..(rules.n_distances as usize).min(4) {
                let k = rules.distances[j];
                let src = movers[k as usize & 7] & o[(k as usize - 1) & 3];
                let r = match k {
                    1 => src.shift(D, 1),
                    2 => src.shift(D, 2),
                    3 => src.shift(D, 3),
                    _ => src.shift(D, 4),
                } & enemy;
                reach.by[j][D as usize] = r;
                reach.twice |= once & r;
                once |= r;
            }
        });
        if rules.encounter {
            encounter::captures(&mut hits, &reach);
        }
        if rules.ambush {
            ambush::captures(&mut hits, &reach);
        }
    }
    if rules.sally {
        match known {
            None => sally::captures(&mut hits, own, enemy, common_rank),
            Some((known, changed)) => {
                known.kept(changed, hits.caps);
                sally::captures_on(&mut hits, own, enemy, common_rank, changed);
            }
        }
    }
    // Several reasons for one (from, to, kind) make one move.
    let caps = &mut out[first..];
    if caps.len() > 1 {
        caps.sort_unstable();
        let mut w = 1;
        for r in 1..caps.len() {
            if caps[r] != caps[w - 1] {
                caps[w] = caps[r];
                w += 1;
            }
        }
        out.truncate(first + w);
    }
}

impl Position {
    /// The pieces (of both sides) of the rules' `j`-th distance group: those
    /// that move `rules.distances[j]` squares.
    #[inline]
    pub fn distance_group(&self, rules: &RuleSet, j: usize) -> Bitboard {
        by_distance(self, rules, Bitboard::FULL)[rules.distances[j] as usize & 7]
    }

    /// The pieces of `side` that cannot move over `paths`.
    #[inline(always)]
    pub(crate) fn stuck(&self, rules: &RuleSet, side: Side, paths: &Paths) -> Bitboard {
        stuck(rules, paths, &by_distance(self, rules, self.occupied(side)))
    }

    /// The plain moves `side` would have here (whoever is to move).
    #[inline(always)]
    pub(crate) fn mobility(&self, rules: &RuleSet, side: Side) -> u32 {
        plain_count(rules, !self.all(), &by_distance(self, rules, self.occupied(side))) as u32
    }

    /// Every legal move, none when the game is over (a victory reached or
    /// the quiet-ply limit).
    pub fn legal_moves(&self, rules: &RuleSet) -> MoveList {
        let mut out = MoveList::new();
        if !self.is_over(rules) {
            self.generate(rules, &mut out);
        }
        out
    }

    /// Every move of the side to move, whether or not the game is over:
    /// the plain ones by distance group, direction and square, then the
    /// captures and strikes in order.
    pub fn generate(&self, rules: &RuleSet, out: &mut MoveList) {
        let pos = self;
        let onto = Bitboard::FULL;
        with_bit_instructions!(generate_body(pos: &Position, rules: &RuleSet, onto: Bitboard, out: &mut MoveList) -> ())
    }

    /// The moves of [`Position::generate`] without the plain moves that
    /// end outside `onto`, in the same order: what a quiescence search
    /// looks at (captures, strikes, and the plain moves that may besiege).
    pub fn generate_onto(&self, rules: &RuleSet, onto: Bitboard, out: &mut MoveList) {
        let pos = self;
        with_bit_instructions!(generate_body(pos: &Position, rules: &RuleSet, onto: Bitboard, out: &mut MoveList) -> ())
    }

    /// Whether the side to move has a plain move.
    pub fn has_plain_move(&self, rules: &RuleSet) -> bool {
        let paths = Paths::new(!self.all(), rules.max_distance());
        let movers = by_distance(self, rules, self.occupied(self.side_to_move()));
        rules.distances[..rules.n_distances as usize]
            .iter()
            .any(|&k| !(movers[k as usize & 7] & paths.any(k)).is_empty())
    }

    /// The number of legal moves (none when the game is over), without
    /// listing the plain ones: what perft needs at its last ply.
    pub fn count_moves(&self, rules: &RuleSet) -> usize {
        let pos = self;
        let known = None;
        with_bit_instructions!(count_body(pos: &Position, rules: &RuleSet, known: Option<(&sally::Known, Lines)>) -> usize)
    }

    /// [`Position::count_moves`] one move after a position where the side
    /// to move here had the sallies `known`, the move having changed the
    /// squares on `changed`'s lines.
    pub(crate) fn count_moves_knowing(&self, rules: &RuleSet, known: &sally::Known, changed: Lines) -> usize {
        let pos = self;
        let known = Some((known, changed));
        with_bit_instructions!(count_body(pos: &Position, rules: &RuleSet, known: Option<(&sally::Known, Lines)>) -> usize)
    }

    /// Captures and strikes by encounter, ambush and sally, each (from, to,
    /// kind) once however many reasons allow it.
    pub fn captures(&self, rules: &RuleSet, out: &mut MoveList) {
        self.captures_of(rules, self.side_to_move(), out);
    }

    /// The captures and strikes `side` would have here (whoever is to
    /// move), as [`Position::captures`] lists them.
    pub fn captures_of(&self, rules: &RuleSet, side: Side, out: &mut MoveList) {
        let pos = self;
        with_bit_instructions!(captures_body(pos: &Position, rules: &RuleSet, side: Side, out: &mut MoveList) -> ())
    }

    /// The position after a move (which must be legal): its capture or
    /// strike, then every enemy piece it besieges removed.
    #[inline]
    pub fn play(&self, m: Move, rules: &RuleSet) -> Position {
        let mut next = *self;
        next.play_in_place(m, rules);
        next
    }

    /// Plays a move on this position; returns the squares emptied by siege.
    pub fn play_in_place(&mut self, m: Move, rules: &RuleSet) -> Bitboard {
        let mover = self.side_to_move();
        match m.kind {
            MoveKind::Plain => self.relocate(m.from, m.to),
            MoveKind::Capture => {
                self.capture(m.to, mover);
                self.relocate(m.from, m.to);
            }
            MoveKind::Strike => self.strike(m.to, mover),
        }
        let sieged = if rules.siege { siege::besieged(self, mover, rules) } else { Bitboard::EMPTY };
        for s in sieged.iter() {
            self.capture(s, mover);
        }
        self.end_turn(m.kind == MoveKind::Plain && sieged.is_empty());
        sieged
    }

    /// Plays a move and returns what is needed to take it back exactly.
    pub fn make(&mut self, m: Move, rules: &RuleSet) -> Snapshot {
        let mut snap = Snapshot::default();
        self.make_into(m, rules, &mut snap);
        snap
    }

    /// [`Position::make`] into a record kept by the caller (reused from
    /// move to move).
    #[inline]
    pub fn make_into(&mut self, m: Move, rules: &RuleSet, snap: &mut Snapshot) {
        let mover = self.side_to_move();
        self.snapshot_into(mover, snap);
        // A pyramid that moves changes the pyramid table before any removal
        // would save it: save it now, so that unmaking restores the table as
        // it was before the move.
        if self.shape_bb(Shape::Pyramid).contains(m.from) {
            self.save_pyramids(snap);
        }
        match m.kind {
            MoveKind::Plain => self.relocate(m.from, m.to),
            MoveKind::Capture => {
                self.note_removal(m.to, snap);
                self.capture(m.to, mover);
                self.relocate(m.from, m.to);
            }
            MoveKind::Strike => {
                self.save_pyramids(snap);
                self.strike(m.to, mover);
            }
        }
        let sieged = if rules.siege { siege::besieged(self, mover, rules) } else { Bitboard::EMPTY };
        for s in sieged.iter() {
            self.note_removal(s, snap);
            self.capture(s, mover);
        }
        self.end_turn(m.kind == MoveKind::Plain && sieged.is_empty());
    }

    /// Takes back the last move made with [`Position::make`].
    #[inline]
    pub fn unmake(&mut self, m: Move, snap: &Snapshot) {
        let mover = self.side_to_move().other();
        self.restore(m, mover, snap);
    }

    /// Whether a move is legal here.
    pub fn is_legal(&self, m: Move, rules: &RuleSet) -> bool {
        self.legal_moves(rules).contains(&m)
    }
}
