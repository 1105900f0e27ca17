//! Values where chance sits inside cycles: Schädler's reading, a throw before
//! every move of the movement phase.
//!
//! # The game inside a movement group
//! Inside a group (a movement sector and its mirror) the only moves that stay
//! are the steps that close no mill; they are the same after either throw. A
//! capture, a leap (which always closes a mill) and a win leave the group for
//! values already known. So a position `s` has, for the side to move:
//! in-group children `c` worth `−v(c)`, a best exit `EN` after a normal throw
//! and a best exit `ES ≥ EN` after a special one, and
//!
//! `v(s) = pN · max(EN, M) + pS · max(ES, M)`, with `M = max_c −v(c)`,
//!
//! where endless play counts 0. This equation has many solutions where play
//! can cycle; the value is the one both sides can guarantee.
//!
//! # A mill level at a time
//! A step that stays in the group closes no mill, so the lines the two
//! sides fill (the position's mill level) stay the same or, when the man
//! left a mill, fall: play never climbs to a higher level. [`solve`] solves
//! the levels in turn, lowest first, each as a game of its own whose exits
//! also lead into the levels below; only one level's working arrays are in
//! memory at once, beside the codes and ranks of the levels finished (6
//! bytes per position of those, in the order of their indices, a bit per
//! index saying which; each level's set of positions is made when its turn
//! comes, in a pass over the group's indices): on nine men's morris the
//! largest level holds about 37 % (9 v 9) to 89 % (4 v 5) of a group's
//! positions (the level without mills, solved first, on most groups; the
//! level with one mill on 8 v 8 and where a side has 9 men but 4 v 9). The
//! proven errors of the levels add up, and the progress ranks of each level
//! are raised above those of the levels below, so that they fall along play
//! through the whole group.
//!
//! # Sure wins and losses first
//! Where the side to move has, after every throw, an exit worth +1 or a
//! child that is a sure loss for the other side, it wins whatever the dice
//! and the replies; where after every throw every exit is worth −1 and every
//! child is a sure win for the other side, it loses. A retrograde pass from
//! the exits (as without dice, a counter of children per position) finds
//! these positions before the iteration and fixes them at ±1, their values
//! in every solution; the iteration then works on the rest. Most positions
//! of the unbalanced groups are such (68 % of nine's 3 v 5 mill level 0),
//! few of the balanced ones (14 % of 4 v 4's).
//!
//! # Strategy iteration with exact evaluation
//! A strategy picks, for every position and throw, either the exit or one
//! in-group child (the same after both throws). Under a pair of strategies
//! each position has at most one in-group successor, reached with chance
//! `b ∈ {0, pN, pS, 1}`: the positions form a functional graph, and the
//! values of the pair follow exactly, in one pass — along each path to a
//! cycle, and on each cycle from its closed form (a cycle that never stops
//! is endless play: 0).
//!
//! Letting both sides switch at once can cycle for ever, so the solver
//! follows Hoffman and Karp: the first player's strategy is improved, and
//! after each improvement the second player's best reply is computed
//! exactly (its own strategy iteration). The two sides are kept apart (each
//! position once with each side to move), the first player's values rise
//! with every improvement, and the iteration ends at optimal strategies.
//!
//! # Two copies
//! Each position with each side to move makes two nodes, so a group has two
//! copies of its game. Where the positions fall in two classes with every
//! in-group step leading from one to the other, the nodes where the first
//! player moves in the first class and the second player in the second are
//! a game of their own, closed under play, and so are the others (the same
//! game with the players' parts swapped). A sector and its mirror (a side
//! of 5 men against one of 7, and 7 against 5) are two such classes. So are,
//! in a group of one sector (5 v 5) on six and nine men's morris, the
//! positions with an even and with an odd number of men on the points of
//! one colour: the points take two colours (corners and midpoints of the
//! squares, swapped on the middle square) such that every step along a line
//! changes colour. Every in-group step is checked to change class: men that
//! fly, or a blocked player's pass, can join two positions of one class,
//! and then the copies are one game.
//! Either copy gives every position's value; the other is what proves it:
//! the first player's values are what its strategy guarantees, the second
//! player's what the best reply gets, and only both copies together bound
//! every position from both sides (the gap below). So the first copy is
//! solved alone, then the second alone, in the game itself, from the first
//! one's values: the replying side keeps the strategy the first player had
//! in the same positions, and the first player, which in the first copy
//! only replied where it now moves, starts from the strategy those values
//! make optimal if they are the game's: a best move after each throw, and
//! where it is ahead and stays, the equally good child nearest an exit (the
//! progress ranks below). A value-greedy choice alone is not enough there
//! (the side ahead may keep to a loop and get 0), and a reply's strategy
//! would be exploited; from this start the second copy has little left to
//! do. Should the gap still be open, both go on together. Where the copies
//! are one game both are in play from the start.
//!
//! One improvement pass can stop short where play may loop: a side behind
//! (value < 0) that could hold a loop among equally good moves, and so get
//! 0, sees no strictly better move. The reply is a one-player problem: after
//! it stops improving, the loops the second player can hold while behind
//! (the greatest set of positions where it has an equally good in-group
//! move staying in the set and the first player's strategy stays in it too)
//! are found, and it is switched to hold them; this raises its values, so
//! the reply ends at the best one. The first player's strict improvements
//! raise what its strategy guarantees, but its own holds need not (the reply
//! may leave a held loop for an equal exit and the two can turn in circles),
//! so it holds loops only through the discounted game: there a loop is worth
//! 0 and every improvement is one. The strategies are sought first with
//! `1 − λ = 10⁻⁴`, then improved in the game itself; when the first
//! player's guarantee and the best reply's value still differ, the discount
//! is made smaller (`10⁻⁷`, `10⁻¹⁰`, then `10⁻¹²`, whose search switches on
//! a tenth of the discount rather than the game's tolerance) and the search
//! begins again from the strategies reached: for a small enough discount the
//! optimal strategies of the discounted game are optimal in the game itself
//! (Blackwell), and short of that a strategy optimal under discount `δ`
//! falls short by about `δ` times the length of play ([`DISCOUNTS`]). When the
//! two agree, `v = F(v)`, the second player's reply is best against the
//! first player's strategy and that strategy is best: the values are the
//! game's.
//!
//! # Only what changed
//! After the first rounds most of a round's work would repeat the last: a
//! switch changes the values only of the nodes whose path under the pair of
//! strategies runs through it (found backwards along the strategies, over the
//! in-group parents), and an improvement pass can change a node's choice only
//! where a child's value changed. So each evaluation recomputes just those
//! nodes and each pass examines just those parents. The nodes are found a
//! level at a time (every node moves on into one node, so the nodes of one
//! level are found once each, and its values follow from the level before):
//! large levels are searched and computed in parallel. A full evaluation and
//! full passes begin each discount and close the iteration, and
//! `Group::full_passes` keeps every round whole (for the tests, which compare
//! the two). Where the parents are generated, those the backward search
//! generates are kept, in the memory the solve may hold beyond its estimate,
//! for the parents of the changed values, which are mostly the same nodes.
//! Where the children are generated to fit the memory, a round whose lists
//! would pass an eighth of the positions is made whole instead (the same
//! values and switches), so that the partial rounds hold little beside the
//! group's arrays.
//!
//! Finally the positions where the side ahead must keep to equally good
//! in-group moves are ranked by their distance to an exit (the side behind
//! choosing among its equally good moves, the side ahead the nearest); the
//! ranks are kept with the table, so that perfect play makes progress.
//!
//! # Stopped and resumed
//! The largest groups take hours, so with a database the solve is saved
//! every so often ([`solve_resuming`], `<group>.resume` beside the sector
//! files): between mill levels, and at the top of the rounds of the reply
//! (each outer round begins with one) in a level's iteration under the
//! first discount (the discounted search, most
//! of the work, then the game itself, then the second copy) and of a
//! later discount's search where the one before leaves a gap, where the
//! state is the strategies alone (each node's successor and choice bits, 5
//! bytes) and the part at hand, once the round's evaluation and passes are
//! made whole, which find the same values and switches as partial ones. A
//! resumed solve builds the level again, takes the saved strategies (not
//! the warm start's; inside the second copy it evaluates the first copy's
//! again, as the whole evaluation that closed it did) and goes on: the
//! same bytes as a solve never stopped.
//!
//! # Children stored or generated
//! The passes read each position's in-group children, the evaluations and
//! the lists of changed values its parents. They are kept in lists built
//! once ([`Moves::Stored`], 8 bytes per child: about half of a large
//! group's memory), or generated from the rules each time they are read
//! ([`Moves::Generated`]: the children by the moves that take nothing, the
//! parents by the same moves run backwards), ascending and each once as the
//! lists hold them, so that the iteration takes the same path and writes
//! the same bits, in about two and a half times the time; or the children
//! are listed and the parents generated ([`Moves::Half`]: 4 bytes per
//! child, in about one and a half times the time; the children's lists are
//! made after the rest of the build, counted first, so that nothing beside
//! them is held per child).

use engine::merels::{Action, Blocked, PointSet, Rules, State, Throw};
use rayon::prelude::*;
use smallvec::SmallVec;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64};

use super::checkpoint::{Checkpoint, Part};
use super::index::{Cursor, Indexer, OwnPart, select_bit};
use super::known::Known;
use super::observer::{Observer, Silent};
use super::sector::Sector;
use super::table::{Meta, Table, Values, prefetch};
use super::value::{CODE_UNUSED, GRID_HALF_STEP, TIE, from_code, neg_code, to_code};

const UNUSED: u8 = 0;
const FIXED: u8 = 1;
const LIVE: u8 = 2;
/// A live position whose value ±1 [`Group::settle`] found before the
/// iteration: fixed for the iteration, live for the progress ranks.
const SURE: u8 = 3;

/// No exit after this throw, or no in-group successor.
const NONE: u32 = u32::MAX;

/// `mode` bits: the strategy stays in the group after a normal throw, after
/// a special throw; the position has in-group children.
const STAY_N: u8 = 1;
const STAY_S: u8 = 2;
const HAS_KIDS: u8 = 4;
/// Set by the last improvement pass: the best in-group child is as good as
/// any exit after either throw.
const CAN_STAY: u8 = 8;

/// Two values closer than this are equally good (far below the grid step,
/// far above the rounding of the exact evaluation on most groups; on the
/// long cycles of flying men a switch may still come from rounding, which
/// the discounted searches and the gap between the sides absorb).
const TOL: f64 = 1e-11;

/// Marks of the nodes in an evaluation (`Group::mark`, all `KEEP` between
/// evaluations): value known and kept, to evaluate, on the path being
/// followed, evaluated.
const KEEP: u8 = 0;
const TO_DO: u8 = 1;
const ON_PATH: u8 = 2;
const DONE: u8 = 3;
/// The high bit of a node's mark held by a walker of [`Group::walk_all`]
/// (the low bits name its thread).
const WALKING: u8 = 0x80;

/// The unit roundoff of `f64`.
const UNIT: f64 = f64::EPSILON / 2.0;

/// `1 − λ` of the discounted games the strategies are sought in, in turn,
/// until they are optimal in the game itself: the first is enough for every
/// group of nine men's morris up to 8 men and for most of six's, the second
/// for most of the rest; the third where a level's strategies still fall
/// short after the second by more than `GAP_OK` (on nine men's morris, a
/// mill level of 5 v 8 by 4e-7, closed by the third: the shortfall of a
/// strategy optimal under discount `δ` is of the order of `δ` times the
/// length of play, so each smaller discount takes it down about as much).
/// Not every gap closes that way: below some discount the optimal
/// strategies of the discounted game are those of the game itself
/// (Blackwell), and above it a smaller discount may leave the same gap
/// (6 v 7's mill level 1: 1.66e-5 after the second and after the third).
/// What the discount tells apart is about `δ · |v|` a move, so the search
/// under a discount below `10 TOL` switches on a tenth of the discount
/// ([`tolerance`]): the fourth.
pub const DISCOUNTS: [f64; 4] = [1e-4, 1e-7, 1e-10, 1e-12];

/// How much better a choice must be for a pass of the search under
/// discount `discount` to switch to it: `TOL`, or a tenth of the discount
/// where that is smaller (else the choices the discount tells apart would
/// be lost in the tolerance along all but long stretches of play).
fn tolerance(discount: f64) -> f64 {
    if discount > 0.0 { TOL.min(discount / 10.0) } else { TOL }
}

/// A later discount's search ends after this many rounds (counted from
/// where it began, or was resumed) even if the first player still
/// switches. In exact arithmetic every switch is a gain and the search ends
/// by itself (a few hundred rounds on nine's largest groups), but the
/// fourth discount's search switches on gains near the rounding of the
/// evaluation along long paths, where a search could turn in circles; the
/// gap between the sides measured after it says what is left.
const LATER_ROUNDS: u64 = 1 << 16;

/// A mill level whose own part of the proven error (the gap between the
/// sides and the rounding bound) exceeds this is named in a note: a tenth
/// of the widest interval a solved position may have.
const WIDE_LEVEL: f64 = 1e-7;

/// The first player's guarantee and the best reply's value agree within
/// this when the strategies are optimal (they differ by rounding and by
/// choices within `TOL`).
const GAP_OK: f64 = 1e-8;

/// A level of the partial evaluation's backward search at least this large
/// is searched and computed in parallel, and so are the parents of the
/// changed values of an evaluation of at least this many nodes.
const PARALLEL_LEVEL: usize = 1 << 12;
/// The nodes one task of a large level or evaluation takes (and the
/// positions one task of a level of the settling or of the ranking's scan).
const CHUNK: usize = PARALLEL_LEVEL / 4;

/// The owners one task of a build takes (the group's positions as built,
/// the lists of [`Lists::build_with`]), in ascending order.
const BUILD_BLOCK: usize = 1 << 14;

/// Where the parents are generated (to fit the memory), the lists of the
/// partial rounds (the nodes switched, those a partial evaluation
/// recomputes, each side's positions for the next pass) hold at most an
/// eighth of the group's positions (`LIST_SHARE`), and at least this many:
/// past that the round is made whole (the evaluation over every node, the
/// pass over the positions whose flags are set), with the same results, so
/// that what the rounds hold beside the group's arrays stays a small share.
const LIST_FLOOR: usize = PARALLEL_LEVEL;
/// The share of the positions (as a shift) the lists of the partial rounds
/// hold at most where they are bounded.
const LIST_SHARE: u32 = 3;

/// Where the parents are generated, a partial evaluation keeps those its
/// backward search generated, for the parents of the changed values, rather
/// than generate them again (on nine's 4 v 6 a fifth of the iteration's
/// time), in the memory the solve may hold beyond its estimate: this many
/// bytes of it per entry kept (4, twice for the lists' growth, and as much
/// again for the chunks' buffers a level's search fills before they are
/// kept).
const KIN_BYTES: u64 = 16;

/// Where the lists are bounded, a partial evaluation takes about this share
/// of their bound (as a shift; at least `PARALLEL_LEVEL`) of nodes at a
/// time, in the backward search and for the parents of the changed values,
/// before what they found is gathered and the bound checked: the lists may
/// pass the bound by what one such batch finds before they are given up.
const BATCH_SHARE: u32 = 2;

/// How many positions ahead an improvement pass, the warm start and the
/// ranking fetch the children's values, and the evaluation the entries of
/// the parents (whose lists it fetches two and three times as far ahead),
/// all where the lists are stored.
const PREFETCH_AHEAD: usize = 4;

/// Most interval-iteration sweeps of the warm start: a few settle the
/// positions near the exits; more cost more than the (partial) rounds they
/// save.
const WARM_SWEEPS: u64 = 4;

/// Progress and effort of one group's solve.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Improvement passes (each generates every position's moves).
    pub rounds: u64,
    /// Those made while one copy of the group's game was in play alone.
    pub one_copy_rounds: u64,
    /// Times the side behind was switched to hold a loop.
    pub holds: u64,
    /// Positions where the side ahead keeps to in-group moves (ranked).
    pub ranked: u64,
    /// The largest progress rank (stored ranks saturate at `u16::MAX`).
    pub max_rank: u32,
    /// Interval-iteration sweeps of the warm start.
    pub warm: u64,
    /// Positions of the side ahead that could not be ranked (none when the
    /// strategies are optimal).
    pub stuck: u64,
    /// Largest violation of the value equation after the last round.
    pub residual: f64,
    /// Largest amount by which a choice of the last round falls short of
    /// the best one (a near tie, within `TOL`, keeps the current choice).
    pub slack: f64,
    /// Closing checks (a whole evaluation and whole passes) that still
    /// found a switch: 0 unless the partial rounds missed one.
    pub repairs: u64,
    /// A bound on the rounding error of the last exact evaluation (from its
    /// longest path and cycles; part of the proven error).
    pub arithmetic: f64,
    /// Discounted searches begun (one unless the first discount's
    /// strategies were not optimal in the game itself).
    pub discounts: u64,
    /// Largest difference between what the first player's strategy
    /// guarantees and what the best reply to it gets, over all positions (0
    /// up to rounding when the strategies are optimal).
    pub gap: f64,
    /// Seconds spent in the warm start, in exact evaluations, in
    /// improvement passes and in finding loops to hold.
    pub seconds: [f64; 4],
    /// Nodes whose value exact evaluations computed, over all rounds.
    pub evaluated: u64,
    /// Positions listed for improvement passes (each live one's moves
    /// read), over all rounds.
    pub examined: u64,
    /// Positions examined again after a pass, by `Group::check_passes`.
    pub rechecked: u64,
    /// Positions whose value ±1 the retrograde pass before the iteration
    /// settled (`Group::settle`).
    pub settled: u64,
    /// Nodes whose in-group parents a partial evaluation kept from its
    /// search for its changed values, where they are generated, over all
    /// rounds (not saved with the effort: a resumed solve counts anew).
    pub kept: u64,
}

impl Stats {
    /// Adds the effort of another part of the group (the largest of the
    /// residuals, slacks and gaps; the sum of the rounding bounds, which the
    /// parts' errors add up).
    fn absorb(&mut self, o: &Stats) {
        self.rounds += o.rounds;
        self.one_copy_rounds += o.one_copy_rounds;
        self.holds += o.holds;
        self.ranked += o.ranked;
        self.max_rank = self.max_rank.max(o.max_rank);
        self.warm += o.warm;
        self.stuck += o.stuck;
        self.residual = self.residual.max(o.residual);
        self.slack = self.slack.max(o.slack);
        self.repairs += o.repairs;
        self.arithmetic += o.arithmetic;
        self.discounts = self.discounts.max(o.discounts);
        self.gap = self.gap.max(o.gap);
        for (s, t) in self.seconds.iter_mut().zip(o.seconds) {
            *s += t;
        }
        self.evaluated += o.evaluated;
        self.kept += o.kept;
        self.examined += o.examined;
        self.rechecked += o.rechecked;
        self.settled += o.settled;
    }
}

/// The side whose strategy the outer loop improves, and the side that
/// replies.
pub const FIRST: usize = 0;

/// One position as built: kind, exits and first strategy (its in-group
/// children go to the group's lists), its class where the group's positions
/// may fall in two (see [`Group::class_of`]), and whether every in-group
/// child is of the other class.
#[derive(Clone, Copy)]
struct Built {
    kind: u8,
    en: u32,
    es: u32,
    next: u32,
    mode: u8,
    second: bool,
    crosses: bool,
}
pub const SECOND: usize = 1;

/// A group's arrays of positions as its build writes them, with the first
/// strategy of one node per position (both of a position's nodes start
/// alike: [`Group::make_nodes`] makes the other).
struct Rows {
    kind: Vec<u8>,
    exits: Vec<[u32; 2]>,
    next: Vec<u32>,
    mode: Vec<u8>,
    class: Vec<u64>,
}

impl Rows {
    fn take(g: &mut Group) -> Rows {
        use std::mem::take;
        Rows {
            kind: take(&mut g.kind),
            exits: take(&mut g.exits),
            next: take(&mut g.next),
            mode: take(&mut g.mode),
            class: take(&mut g.class),
        }
    }

    fn restore(self, g: &mut Group) {
        (g.kind, g.exits, g.next, g.mode) = (self.kind, self.exits, self.next, self.mode);
        g.class = self.class;
    }

    /// Position `p`'s record from `row(state, p)` into its place (its
    /// class as a bit of the second class, for a live position),
    /// `BUILD_BLOCK` positions at a time in parallel, each block with a
    /// state of its own from `init` (and reported to `obs` as it begins).
    /// Returns whether every live position's in-group children are of the
    /// other class.
    fn fill<S>(
        &mut self,
        obs: &dyn Observer,
        init: impl Fn() -> S + Sync,
        row: impl Fn(&mut S, usize) -> Built + Sync,
    ) -> bool {
        const B: usize = BUILD_BLOCK;
        const { assert!(B.is_multiple_of(64)) };
        let per_node = self.next.par_chunks_mut(B).zip(self.mode.par_chunks_mut(B));
        let per_position = self.kind.par_chunks_mut(B).zip(self.exits.par_chunks_mut(B));
        let classes = self.class.par_chunks_mut(B / 64);
        per_position
            .zip(per_node)
            .zip(classes)
            .enumerate()
            .map(|(b, (((kind, exits), (next, mode)), class))| {
                obs.advance(kind.len() as u64);
                let mut state = init();
                let mut crosses = true;
                for j in 0..kind.len() {
                    let r = row(&mut state, b * B + j);
                    (kind[j], exits[j]) = (r.kind, [r.en, r.es]);
                    (next[j], mode[j]) = (r.next, r.mode);
                    if r.kind == LIVE {
                        class[j / 64] |= u64::from(r.second) << (j % 64);
                        crosses &= r.crosses;
                    }
                }
                crosses
            })
            .reduce(|| true, |a, b| a && b)
    }
}

/// How a group's solve has each position's in-group children and parents.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Moves {
    /// In lists built once: fast, 8 bytes per child (its place in the
    /// parent's list and the parent's in the child's) and 8 per position.
    #[default]
    Stored,
    /// The children in lists, the parents generated: 4 bytes per child
    /// and 4 per position, in about two thirds of the time of both
    /// generated.
    Half,
    /// Generated from the rules each time they are read (the parents by
    /// the moves run backwards): no lists in memory, more time.
    Generated,
}

/// The memory a group's solve under chance has: how it has the in-group
/// moves, and the bytes it may hold beyond its estimate (`plan`) for what
/// saves time (the parents a partial evaluation keeps where they are
/// generated); and the discounts its levels are solved under
/// ([`DISCOUNTS`]; others for the tests, see [`Group::discounts`]) with the
/// rounds a later discount's search may take ([`LATER_ROUNDS`]; fewer for
/// the tests).
#[derive(Clone, Copy, Debug)]
pub struct Room {
    pub moves: Moves,
    pub spare: u64,
    pub discounts: &'static [f64],
    pub later_rounds: u64,
}

impl Room {
    /// The room of `moves` and `spare` bytes, under [`DISCOUNTS`].
    pub fn new(moves: Moves, spare: u64) -> Room {
        Room { moves, spare, discounts: &DISCOUNTS, later_rounds: LATER_ROUNDS }
    }
}

impl Moves {
    /// Whether the in-group children are read from lists.
    #[inline]
    pub fn lists_children(self) -> bool {
        self != Moves::Generated
    }

    /// Whether the in-group parents are read from lists.
    #[inline]
    pub fn lists_parents(self) -> bool {
        self == Moves::Stored
    }
}

/// A position's in-group children or parents, ascending, each once: read
/// from a list or generated on the spot (inline: a box would allocate at
/// every read).
#[allow(clippy::large_enum_variant)]
enum Adj<'a> {
    Stored(&'a [u32]),
    Made(SmallVec<[u32; 64]>),
}

impl std::ops::Deref for Adj<'_> {
    type Target = [u32];
    #[inline]
    fn deref(&self) -> &[u32] {
        match self {
            Adj::Stored(s) => s,
            Adj::Made(v) => v,
        }
    }
}

/// One movement group under chance, solved by strategy iteration. Nodes are
/// positions with a side to move: node `side · n + p`.
pub struct Group<'a> {
    rules: &'a Rules,
    ix: Vec<Indexer>,
    base: Vec<u64>,
    /// Positions of the group (its sectors' indices one after the other)
    /// taken by this solve, ascending: position `p` is the `p`-th member
    /// (`None`: all of them, position and index alike).
    members: Option<Members>,
    n: usize,
    kind: Vec<u8>,
    /// Best exit codes for the side to move after a normal / special throw.
    exits: Vec<[u32; 2]>,
    /// In-group children of each position, and in-group parents (empty
    /// lists where they are generated).
    moves: Moves,
    kids: Lists<u32>,
    parents: Lists<u32>,
    /// Nodes whose choice changed since the last evaluation, and whether the
    /// next evaluation must be whole (after the values were set otherwise).
    switched: Vec<u32>,
    whole: bool,
    /// Per side, the positions the next improvement pass examines (a child's
    /// value changed since it last looked), with a flag per position and side
    /// (set from many threads); where `scan` is set, every live position in
    /// play whose flag is set (the list grew past its bound, or every
    /// position is to be examined), in the same order as the list sorted.
    dirty: [Vec<u32>; 2],
    scan: [bool; 2],
    flag: Vec<AtomicU8>,
    /// Scratch per node for the evaluations (`KEEP` between them).
    mark: Vec<u8>,
    /// Reused by every evaluation.
    scratch: Scratch,
    /// An improvement pass's new choices, one list per task of a step
    /// (kept from pass to pass).
    picks: Vec<Vec<Pick>>,
    /// Every round whole, as before rounds were made partial.
    full_passes: bool,
    /// The most entries of a partial round's list (0: as `Group::list_cap`
    /// says, a share of the positions where the children are generated, no
    /// bound where they are stored).
    list_cap: usize,
    /// Bytes the solve may hold beyond its estimate (`plan`) for what saves
    /// time: the parents a partial evaluation keeps ([`Group::kin_budget`]).
    spare: u64,
    /// Every pass followed by a whole re-examination (`check_passes`).
    check_passes: bool,
    /// No discounted searches: the game itself from the warm start.
    /// `1 − λ` of the discounted searches, in turn ([`DISCOUNTS`]; `[0]`:
    /// the game itself only).
    discounts: &'static [f64],
    /// The sure wins and losses left to the iteration (`Group::settle`).
    unsettled: bool,
    /// Per node: the in-group child position, the choice bits, the value.
    next: Vec<u32>,
    mode: Vec<u8>,
    val: Vec<f64>,
    /// Throw weights in 72nds.
    w_n: u32,
    w_s: u32,
    /// Weight of a move that stays in the group: 1 for the game itself,
    /// below 1 while the strategies are sought in the discounted game.
    lambda: f64,
    /// How much better a choice must be for a pass to switch to it:
    /// [`tolerance`] of the discount in a discounted search, `TOL` in the
    /// game itself.
    tol: f64,
    /// The round at which the search at hand ends even if the first player
    /// still switches ([`LATER_ROUNDS`]; `u64::MAX`: none).
    round_cap: u64,
    /// The rounds a later discount's search may take ([`LATER_ROUNDS`]).
    later_rounds: u64,
    /// Distance to an exit of the positions where the side ahead keeps to
    /// in-group moves.
    rank: Ranks,
    pub stats: Stats,
    /// The copies in play (see the module's notes) and, where the group's
    /// game has two, the positions of the second class (a bit each): in the
    /// first copy the first player moves in the positions of the first
    /// class and the second player in the others.
    play: Play,
    class: Vec<u64>,
    /// How the group's positions may fall in two such classes, if they can.
    classes: Option<Classes>,
    /// The first player's values as the tables store them, once the
    /// iteration is over (the values then give way to them).
    codes: Vec<u32>,
    /// The side, discount and copies of the last search for loops to hold
    /// that found none, while no strategy has changed since: the same
    /// search would find none again.
    idle_hold: Option<(usize, u64, Play)>,
    /// The part of the iteration at hand ([`SEARCH`], [`GAME`],
    /// [`SECOND_COPY`], [`LATER_SEARCH`]), saved with the strategies.
    phase: u8,
}

/// A new choice an improvement pass makes: the position, the choice bits
/// and the in-group successor.
type Pick = (u32, u8, u32);

/// The positions one step of an improvement pass examines: some of its
/// list, or those of a range that the pass takes by their flags.
#[derive(Clone, Copy)]
enum Block<'l> {
    Listed(&'l [u32]),
    Range(usize, usize),
}

/// Whether position `p` is in the set of positions `class` (a bit each).
#[inline]
fn in_class(class: &[u64], p: usize) -> bool {
    class[p / 64] >> (p % 64) & 1 == 1
}

/// How the positions of a group may fall in two classes with every in-group
/// step leading from one to the other (see [`Group::two_classes`]).
#[derive(Clone, Copy)]
enum Classes {
    /// A sector and its mirror.
    Sectors,
    /// In a group of one sector, the positions with an odd number of men on
    /// these points (of one colour) and the others.
    Colour(PointSet),
}

/// Moves generated a few places ahead of a list's walk, in two stages: a
/// place's positions as group indices first (the lookups of the part's
/// members set under way), then, [`PREFETCH_AHEAD`] places later, as
/// positions (what is read of each fetched), and as many places later
/// taken. In the large groups every lookup misses the cache; so the misses
/// overlap with the work on the places before.
#[derive(Default)]
struct Ahead {
    /// Place `k`'s group indices, then its positions, in slot `k % RING`.
    at: [SmallVec<[u64; 64]>; RING],
    ps: [SmallVec<[u32; 64]>; RING],
    /// The places before these were generated, and resolved.
    generated: usize,
    resolved: usize,
}

/// The places an [`Ahead`] holds at once.
const RING: usize = 2 * PREFETCH_AHEAD;

impl Ahead {
    /// The positions of place `i` (called with places that rise), where
    /// `places(k, at)` puts those of place `k` into `at` as group indices
    /// (sorted, each once, their lookups asked for: [`Group::members_of`]) and
    /// `resolve(k, positions)` is told them as positions (to fetch what is
    /// read of them).
    #[inline]
    fn take(
        &mut self,
        g: &Group,
        i: usize,
        places: impl Fn(usize, &mut SmallVec<[u64; 64]>),
        resolve: impl Fn(usize, &[u32]),
    ) -> SmallVec<[u32; 64]> {
        for k in self.generated.max(i)..i + RING {
            let at = &mut self.at[k % RING];
            at.clear();
            places(k, at);
        }
        self.generated = self.generated.max(i + RING);
        for k in self.resolved.max(i)..i + PREFETCH_AHEAD {
            let ps = &mut self.ps[k % RING];
            ps.clear();
            g.positions_at(&self.at[k % RING], ps);
            resolve(k, ps);
        }
        self.resolved = self.resolved.max(i + PREFETCH_AHEAD);
        std::mem::take(&mut self.ps[i % RING])
    }
}

/// The in-group parents of the positions of a list's nodes, taken in turn
/// ([`ParentsAhead::get`] for each place of the list, ascending): read from
/// the lists, or where they are generated, generated a few places ahead
/// ([`Ahead`]) with what is read of each parent node, and whether it is
/// one, fetched meanwhile.
#[derive(Default)]
struct ParentsAhead(Ahead);

impl ParentsAhead {
    /// The parents of the position of node `list[i]`, where this is called
    /// with places `i` that rise, each wanted (`want(i)`), and the same
    /// `want` each time: where they are generated, those of the wanted
    /// places a few after `i` are generated and each of their parent nodes
    /// (on the other side) handed to `fetch`.
    #[inline]
    fn get<'g>(
        &mut self,
        g: &'g Group,
        list: &[u32],
        i: usize,
        want: impl Fn(usize) -> bool,
        fetch: impl Fn(usize),
    ) -> Adj<'g> {
        if g.moves.lists_parents() {
            return Adj::Stored(g.parents.get(g.side_of(list[i] as usize).1));
        }
        let places = |k: usize, at: &mut SmallVec<[u64; 64]>| {
            if let Some(&z) = list.get(k)
                && want(k)
            {
                g.parent_places(g.side_of(z as usize).1, at);
            }
        };
        let resolve = |k: usize, ps: &[u32]| {
            if let Some(&z) = list.get(k) {
                let side = g.side_of(z as usize).0;
                for &p in ps {
                    prefetch(&g.kind[p as usize]);
                    fetch((1 - side) * g.n + p as usize);
                }
            }
        };
        let mut ps = self.0.take(g, i, places, resolve);
        g.keep_parents(&mut ps);
        Adj::Made(ps)
    }
}

/// The in-group children of the positions of a walk, taken in turn
/// ([`KidsAhead::get`] for each place, ascending): read from the lists, or
/// where they are generated, generated a few places ahead ([`Ahead`]) with
/// what is read of each child fetched meanwhile.
#[derive(Default)]
struct KidsAhead(Ahead);

impl KidsAhead {
    /// The children of position `at(j)`, where this is called with places
    /// `j` that rise, `at` giving the position of each place the walk takes
    /// (`None` for a place it passes by), the same `at` each time: where
    /// they are generated, those of the places a few after `j` are, and
    /// each of their children handed to `fetch`.
    #[inline]
    fn get<'g>(
        &mut self,
        g: &'g Group,
        j: usize,
        at: impl Fn(usize) -> Option<usize>,
        fetch: impl Fn(usize),
    ) -> Adj<'g> {
        if g.moves.lists_children() {
            return Adj::Stored(g.kids.get(at(j).expect("a place the walk takes")));
        }
        let places = |k: usize, out: &mut SmallVec<[u64; 64]>| {
            if let Some(p) = at(k) {
                g.kid_places(p, out);
            }
        };
        let resolve = |_: usize, kids: &[u32]| {
            for &c in kids {
                fetch(c as usize);
            }
        };
        Adj::Made(self.0.take(g, j, places, resolve))
    }
}

/// The parts of the iteration where a solve saves its strategies: the
/// first discount's search, then the first copy (or both) in the game
/// itself, then the second copy; and where a discount leaves a gap, the
/// next discount's search (both copies in play; which discount, the
/// level's effort saved with it says: [`Stats::discounts`]).
const SEARCH: u8 = 0;
const GAME: u8 = 1;
const SECOND_COPY: u8 = 2;
const LATER_SEARCH: u8 = 3;

/// The name of part `phase` of the iteration, in the `discounts`-th
/// discount (counted from 1), for messages.
fn part_name(phase: u8, discounts: u64) -> &'static str {
    match (phase, discounts) {
        (SEARCH, _) => "the discounted search",
        (GAME, _) => "the game itself",
        (SECOND_COPY, _) => "the second copy",
        (_, 2) => "the second discount's search",
        (_, 3) => "the third discount's search",
        _ => "a later discount's search",
    }
}

/// What the top of a round of the reply in a part that may be saved does:
/// go on, go on after the strategies were saved, or stop (saved).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Boundary {
    Pass,
    Saved,
    Stop,
}

/// Asked at the top of each round of the reply in a part that may be saved.
type Boundaries<'b, 'a> = dyn FnMut(&Group<'a>) -> Boundary + 'b;

/// The copies of a group's game in play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Play {
    Both,
    First,
    Second,
}

impl<'a> Group<'a> {
    /// Builds the group: every position's exits and a first strategy for
    /// both sides (take an exit worth at least 0, else stay).
    pub fn new(rules: &'a Rules, known: &Known, ix: Vec<Indexer>, obs: &dyn Observer) -> Group<'a> {
        let mut g = Group::part(rules, known, ix, None, None, Moves::Stored, obs);
        g.make_nodes();
        g
    }

    /// Builds the part of the group made of the positions `members`
    /// (indices of the group; `None`: the whole group): a set that play
    /// leaves only through the group's exits and into positions of the group
    /// whose codes `lower` holds. The build holds one node's strategy per
    /// position; the nodes' arrays follow from [`Group::make_nodes`], once
    /// the tables the build read may have been let go.
    fn part(
        rules: &'a Rules,
        known: &Known,
        ix: Vec<Indexer>,
        members: Option<Members>,
        lower: Option<&Outputs>,
        moves: Moves,
        obs: &dyn Observer,
    ) -> Group<'a> {
        let base = bases(&ix);
        let all = *base.last().expect("base") as usize;
        assert!(all < NONE as usize, "a group of {all} positions is too big for 32-bit ids");
        let n = members.as_ref().map_or(all, |m| m.len());
        let w_s = rules.special_72 as u32;
        let classes = match ix.len() {
            2 => Some(Classes::Sectors),
            _ => rules.board.two_colours().map(Classes::Colour),
        };
        let mut g = Group {
            rules,
            ix,
            base,
            members,
            n,
            kind: vec![UNUSED; n],
            exits: vec![[NONE; 2]; n],
            moves,
            kids: Lists::default(),
            parents: Lists::default(),
            switched: Vec::new(),
            whole: true,
            dirty: [Vec::new(), Vec::new()],
            scan: [false, false],
            list_cap: 0,
            spare: 0,
            flag: (0..n).map(|_| AtomicU8::new(0)).collect(),
            mark: Vec::new(),
            scratch: Scratch::default(),
            picks: Vec::new(),
            full_passes: false,
            check_passes: false,
            discounts: &DISCOUNTS,
            unsettled: false,
            next: vec![NONE; n],
            mode: vec![0; n],
            val: Vec::new(),
            w_n: 72 - w_s,
            w_s,
            lambda: 1.0,
            tol: TOL,
            round_cap: u64::MAX,
            later_rounds: LATER_ROUNDS,
            rank: Ranks::default(),
            stats: Stats::default(),
            play: Play::Both,
            class: vec![0; n.div_ceil(64)],
            classes,
            codes: Vec::new(),
            idle_hold: None,
            phase: SEARCH,
        };
        obs.begin("strategy iteration: exits", n as u64);
        let t = std::time::Instant::now();
        // Each position's record straight into its place in the group's
        // arrays (taken out while the group builds; each side's nodes are
        // one half of them), a block at a time in parallel.
        let mut rows = Rows::take(&mut g);
        let this = &g;
        let (kids, closed) = match moves {
            Moves::Stored => {
                let (kids, built) = Lists::build_with(
                    n,
                    GroupCursor::default,
                    |cur, id, kids| this.build(known, lower, cur, id, kids),
                    obs,
                );
                let closed = rows.fill(&Silent, || (), |_, p| built[p]);
                (kids, closed)
            }
            // Without the lists: no record of a position beside the arrays
            // (the children's lists, where kept, are made after).
            Moves::Half | Moves::Generated => {
                let closed = rows.fill(
                    obs,
                    || (GroupCursor::default(), Vec::new()),
                    |(cur, kids), p| {
                        let b = this.build(known, lower, cur, p, kids);
                        kids.clear();
                        b
                    },
                );
                (Lists::default(), closed)
            }
        };
        rows.restore(&mut g);
        obs.finish();
        let built = t.elapsed().as_secs_f64();
        match moves {
            Moves::Stored => {
                g.parents = kids.reverse(n, |&c| c as usize);
                g.kids = kids;
            }
            Moves::Half => {
                let this = &g;
                let kids = Lists::build_counted(n, |p| this.make_kids(p));
                g.kids = kids;
            }
            Moves::Generated => {}
        }
        let classes = g.classes.is_some() && closed;
        #[cfg(test)]
        assert_eq!(classes.then_some(&g.class), g.two_classes().as_ref(), "the build's classes");
        if std::env::var_os("LUDUS_TRACE").is_some() {
            eprintln!(
                "exits and children {built:.2} s, parents {:.2} s, two classes: {classes}",
                t.elapsed().as_secs_f64() - built
            );
        }
        if classes {
            g.play = Play::First;
        } else {
            g.class = Vec::new();
        }
        g.mark_all_dirty();
        g
    }

    /// The nodes' arrays from the build's records: each position's two
    /// nodes start alike (the build's first strategy, the value −1 where the
    /// side to move has lost, else 0), and no node is marked.
    fn make_nodes(&mut self) {
        let n = self.n;
        debug_assert!(self.next.len() == n && self.mode.len() == n && self.val.is_empty());
        self.next.reserve_exact(n);
        self.next.extend_from_within(..n);
        self.mode.reserve_exact(n);
        self.mode.extend_from_within(..n);
        let kind = &self.kind;
        self.val = (0..2 * n).into_par_iter().map(|g| if kind[g % n] == FIXED { -1.0 } else { 0.0 }).collect();
        self.mark = vec![0; 2 * n];
    }

    /// Settles the positions whose value is ±1 whatever the throws, by
    /// retrograde analysis from the exits: the side to move wins surely when
    /// after every throw it has an exit worth +1 or a child where the other
    /// side surely loses, and loses surely when after every throw each exit
    /// is worth −1 and each child is a sure win for the other side (a lost
    /// position, too). Such a side wins within a bounded number of moves
    /// whatever the dice and the replies, so these are the game's values
    /// given the exits' codes; both of a settled position's nodes are fixed
    /// at them (kind [`SURE`]) and the iteration works on the rest only.
    /// Returns how many positions were settled (the solve calls it first;
    /// public for the benchmarks).
    pub fn settle(&mut self) -> u64 {
        const WIN: u8 = 1;
        const LOSS: u8 = 2;
        let n = self.n;
        let x = exit_value;
        let (wn, ws) = (self.w_n, self.w_s);
        let (kind, exits) = (&self.kind, &self.exits);
        let exits_win = |p: usize| (wn == 0 || x(exits[p][0]) >= 1.0) && (ws == 0 || x(exits[p][1]) >= 1.0);
        let exits_lose = |p: usize| (wn == 0 || x(exits[p][0]) <= -1.0) && (ws == 0 || x(exits[p][1]) <= -1.0);
        // Children not yet known to be sure wins for the other side (a
        // position has at most a few dozen, each listed once).
        let waiting: Vec<AtomicU8> = (0..n)
            .into_par_iter()
            .map(|p| AtomicU8::new(u8::try_from(self.kids(p).len()).expect("few children")))
            .collect();
        let sure: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();
        // A level at a time from the positions settled by their exits and
        // the lost ones, each level's parents in parallel: a position is
        // settled once (the first to settle it lists it), and which
        // positions are settled does not depend on the order (a sure win has
        // a child that is a sure loss, which never counts down its waiting
        // children; a sure loss has none).
        let mut front: Vec<u32> = (0..n as u32)
            .into_par_iter()
            .filter(|&p| {
                let p = p as usize;
                let s = match kind[p] {
                    FIXED => LOSS,
                    LIVE if exits_win(p) => WIN,
                    LIVE if waiting[p].load(Relaxed) == 0 && exits_lose(p) => LOSS,
                    _ => return false,
                };
                sure[p].store(s, Relaxed);
                true
            })
            .collect();
        while !front.is_empty() {
            front = front
                .par_chunks(CHUNK)
                .flat_map_iter(|cs| {
                    let mut found = Vec::new();
                    for &c in cs {
                        let lost = sure[c as usize].load(Relaxed) == LOSS;
                        for &p in self.parents(c as usize).iter() {
                            let q = p as usize;
                            if kind[q] != LIVE || sure[q].load(Relaxed) != 0 {
                                continue;
                            }
                            let s = if lost {
                                WIN
                            } else {
                                let left = waiting[q].fetch_sub(1, Relaxed);
                                debug_assert_ne!(left, 0, "a child counted down twice");
                                if left != 1 || !exits_lose(q) {
                                    continue;
                                }
                                LOSS
                            };
                            if sure[q].compare_exchange(0, s, Relaxed, Relaxed).is_ok() {
                                found.push(p);
                            }
                        }
                    }
                    found
                })
                .collect();
        }
        drop(waiting);
        let mut settled = 0;
        for (p, s) in sure.into_iter().enumerate() {
            let s = s.into_inner();
            if s == 0 || self.kind[p] != LIVE {
                continue;
            }
            settled += 1;
            self.kind[p] = SURE;
            let v = if s == WIN { 1.0 } else { -1.0 };
            for g in [p, n + p] {
                self.val[g] = v;
                self.mode[g] &= HAS_KIDS;
                self.next[g] = NONE;
            }
        }
        settled
    }

    /// The positions in two classes such that every in-group step leads from
    /// one class to the other (a bit set: the second class), if there are
    /// such: then each copy of the group's game is closed under play. A
    /// sector and its mirror are two such classes; so are, in a group of one
    /// sector on a board whose points take two colours (every step along a
    /// line changing colour), the positions with an even and with an odd
    /// number of men on the points of one colour. Every in-group step is
    /// checked: men that fly, or a blocked player's pass, can join two
    /// positions of one class, and then there are none.
    ///
    /// (The build finds them as it goes, [`Group::class_of`]; this is its
    /// plain twin for the tests, from each position's state and the lists
    /// of children.)
    #[cfg(test)]
    fn two_classes(&self) -> Option<Vec<u64>> {
        let n = self.n;
        let colour = match self.ix.len() {
            2 => None,
            _ => Some(self.rules.board.two_colours()?),
        };
        let second = |p: usize| match colour {
            None => self.group_index(p) as u64 >= self.base[1],
            Some(one) => self
                .state(p, &mut GroupCursor::default())
                .is_some_and(|st| ((st.own.0 | st.other.0) & one.0).count_ones() % 2 == 1),
        };
        let class: Vec<u64> = (0..n.div_ceil(64))
            .into_par_iter()
            .map(|w| {
                (0..64)
                    .filter(|b| w * 64 + b < n && self.kind[w * 64 + b] == LIVE && second(w * 64 + b))
                    .fold(0u64, |x, b| x | 1 << b)
            })
            .collect();
        let closed = (0..n)
            .into_par_iter()
            .all(|p| self.kids(p).iter().all(|&q| in_class(&class, q as usize) != in_class(&class, p)));
        closed.then_some(class)
    }

    /// Whether position `p` is of the second class.
    #[inline]
    fn second_class(&self, p: usize) -> bool {
        in_class(&self.class, p)
    }

    /// Whether node `side · n + p` is in play.
    #[inline]
    fn in_play(&self, side: usize, p: usize) -> bool {
        match self.play {
            Play::Both => true,
            Play::First => (side == FIRST) != self.second_class(p),
            Play::Second => (side == FIRST) == self.second_class(p),
        }
    }

    /// Puts both copies in play from the start (for the tests and
    /// benchmarks, which compare the two schedules).
    pub fn both_copies(&mut self) {
        self.play = Play::Both;
    }

    /// Puts the second copy in play (alone: the first one is solved) with
    /// the strategies and values the first reached: each position's node
    /// there takes those of the same position's node in the first copy
    /// (see [`Group::seed_second_copy`] for the first player's).
    fn take_second_copy(&mut self) {
        let n = self.n;
        for p in 0..n {
            let (a, b) = if self.second_class(p) { (n + p, p) } else { (p, n + p) };
            self.mode[b] = self.mode[a];
            self.next[b] = self.next[a];
            self.val[b] = self.val[a];
        }
        self.play = Play::Second;
        self.whole = true;
        self.idle_hold = None;
    }

    /// Puts the second copy in play like [`Group::take_second_copy`], but
    /// gives the first player, who in the first copy only replied in the
    /// positions it now moves in, the strategy the first copy's values
    /// make optimal if they are the game's: a best move after each throw
    /// and, where it is ahead and stays, the equally good child nearest an
    /// exit (its progress rank; an exit on a tie). Returns how many
    /// positions of the side ahead could not be ranked.
    fn seed_second_copy(&mut self) -> u64 {
        let n = self.n;
        // The second copy's rounds begin with a whole evaluation (below):
        // the first copy's buffers make room for the ranking.
        self.release_rounds();
        // The first copy's values: each position's node in that copy (the
        // first player's where it moved, the reply's where the other did).
        let this = &*self;
        let first = |p: usize| if this.second_class(p) { n + p } else { p };
        let Ranked { ranks, slot, stuck, .. } = self.rank_progress_of(&first);
        self.take_second_copy();
        let rank_of = |c: u32| slot.slot(c).map_or(0, |j| ranks.rank[j as usize]);
        let x = exit_value;
        // The first copy's choices are taken out while the new ones are made
        // (the children are read from the group).
        let (mut mode, mut next) = (std::mem::take(&mut self.mode), std::mem::take(&mut self.next));
        let this = &*self;
        let kind = &this.kind;
        let class = &this.class;
        // Both nodes of a position now hold the first copy's value.
        let val = |p: usize| this.stored_value(p);
        const TASK: usize = 1 << 12;
        // The positions given a strategy here (`HAS_KIDS` in their choice as
        // well).
        let seeded = |p: usize| in_class(class, p) && kind[p] == LIVE;
        let chunks = mode[..n].par_chunks_mut(TASK).zip(next[..n].par_chunks_mut(TASK)).enumerate();
        chunks.for_each(|(k, (modes, nexts))| {
            // Where the children are generated, those of the positions a
            // few on are, and their values fetched.
            let (lo, len) = (k * TASK, nexts.len());
            let mut walk = KidsAhead::default();
            let at = |j: usize| (j < len && seeded(lo + j)).then_some(lo + j);
            for (j, (md, next)) in modes.iter_mut().zip(nexts.iter_mut()).enumerate() {
                let p = lo + j;
                if !seeded(p) || *md & HAS_KIDS == 0 {
                    continue;
                }
                let kids = walk.get(this, j, at, |c| this.prefetch_stored(c));
                let m = kids.iter().map(|&c| -val(c as usize)).fold(f64::NEG_INFINITY, f64::max);
                let ahead = val(p) > TIE;
                // The best child: for the side ahead the one of least rank (a
                // child outside the ranked ones leaves the group next).
                let (mut arg, mut least) = (NONE, u32::MAX);
                for &c in kids.iter() {
                    if -val(c as usize) >= m - TIE {
                        let r = if ahead { rank_of(c) } else { 0 };
                        if arg == NONE || r < least {
                            (arg, least) = (c, r);
                        }
                    }
                }
                // The side ahead takes an exit as good as staying; the other
                // stays where staying is as good.
                let mut mode = HAS_KIDS;
                for (bit, e) in [(STAY_N, this.en(p)), (STAY_S, this.es(p))] {
                    if (ahead && m > x(e) + TIE) || (!ahead && m >= x(e) - TIE) {
                        mode |= bit;
                    }
                }
                *md = mode;
                *next = if mode & (STAY_N | STAY_S) != 0 { arg } else { NONE };
            }
        });
        (self.mode, self.next) = (mode, next);
        stuck
    }

    /// Makes every round whole (no partial evaluations or passes).
    pub fn full_passes(&mut self) {
        self.full_passes = true;
    }

    /// After every improvement pass, examines every position of the side
    /// again and panics if one would switch (for the tests: a partial pass
    /// must leave out only positions whose choice stays).
    pub fn check_passes(&mut self) {
        self.check_passes = true;
    }

    /// Seeks the strategies in the game itself only, without the discounted
    /// searches (for the tests: the second player's holds then do much of
    /// the work, and the first player's strategy may stay short of optimal,
    /// which the gap between the sides shows).
    pub fn undiscounted(&mut self) {
        self.discounts = &[0.0];
    }

    /// Seeks the strategies under the discounts `discounts` in turn instead
    /// of [`DISCOUNTS`] (for the tests: larger ones leave a gap to the next).
    pub fn discounts(&mut self, discounts: &'static [f64]) {
        assert!(!discounts.is_empty() && discounts.len() <= DISCOUNTS.len(), "one to {} discounts", DISCOUNTS.len());
        self.discounts = discounts;
    }

    /// Whether the strategies are sought in discounted games first.
    fn discounted(&self) -> bool {
        self.discounts[0] > 0.0
    }

    /// Leaves the positions that are sure wins or losses whatever the throws
    /// to the iteration instead of settling them first (for the tests,
    /// which compare the two).
    pub fn unsettled(&mut self) {
        self.unsettled = true;
    }

    /// Bounds the lists of the partial rounds to `cap` entries (for the
    /// tests, which compare rounds made whole where the lists would grow
    /// past a small bound with rounds that never are).
    pub fn bound_lists(&mut self, cap: usize) {
        self.list_cap = cap;
    }

    /// The most entries of a partial round's list: where the parents are
    /// generated (to fit the memory), a share of the positions; where the
    /// children and parents are all stored, no bound (the lists are small
    /// beside them).
    fn list_cap(&self) -> usize {
        match (self.list_cap, self.moves) {
            (0, Moves::Stored) => usize::MAX,
            (0, _) => (self.n >> LIST_SHARE).max(LIST_FLOOR),
            (cap, _) => cap,
        }
    }

    /// Lets the solve hold `bytes` beyond its estimate for what saves time.
    pub fn spare_memory(&mut self, bytes: u64) {
        self.spare = bytes;
    }

    /// How many entries (a parent, or the end of a node's parents) a
    /// partial evaluation keeps from its backward search for the changed
    /// values where the parents are generated: as many as
    /// [`KIN_BYTES`] bytes each of the spare memory hold, at most one per
    /// position (most rounds need fewer).
    fn kin_budget(&self) -> usize {
        let n = self.n as u64;
        (self.spare / KIN_BYTES).min(n).min(u64::from(u32::MAX)) as usize
    }

    /// Every position with in-group children is examined by each side's
    /// next pass (that finds them by their flags). A settled position is
    /// never listed: its flags stay set.
    fn mark_all_dirty(&mut self) {
        for side in [FIRST, SECOND] {
            self.dirty[side].clear();
            self.scan[side] = true;
        }
        let (kind, mode) = (&self.kind, &self.mode);
        self.flag.par_iter_mut().with_min_len(CHUNK).enumerate().for_each(|(p, f)| {
            let has = kind[p] == LIVE && mode[p] & HAS_KIDS != 0;
            *f.get_mut() = if has || kind[p] == SURE { 3 } else { 0 };
        });
    }

    /// Each side's list for the next pass past its bound is left to the
    /// flags (the pass then scans them).
    fn bound_dirty(&mut self) {
        let cap = self.list_cap();
        for side in [FIRST, SECOND] {
            if self.scan[side] || self.dirty[side].len() > cap {
                self.scan[side] = true;
                self.dirty[side].clear();
            }
        }
    }

    /// Node `g` switched: the next evaluation recomputes what its path
    /// reaches, or every node where the switched nodes grow past the
    /// lists' bound.
    fn switched(&mut self, g: usize) {
        if self.whole {
            return;
        }
        if self.switched.len() >= self.list_cap() {
            self.switched.clear();
            self.whole = true;
        } else {
            self.switched.push(g as u32);
        }
    }

    /// The value of node `side · n + c` changed: its parents on the other
    /// side must look again (each appended to `dirty` unless its flag says
    /// it is listed already).
    ///
    /// In the discounted game a parent that its pass would leave as it was
    /// is left out (`may_switch`; `old` is the node's value before). (In the
    /// game itself every parent looks again, for the marks of the loops that
    /// may be held.)
    #[inline]
    fn changed(&self, g: usize, old: f64, parents: &[u32], dirty: &mut [Vec<u32>; 2]) {
        let (side, c) = self.side_of(g);
        let bit = 1u8 << (1 - side);
        let filter = self.filters_parents();
        let (w, was) = (-self.lambda * self.val[g], -self.lambda * old);
        for &p in parents {
            let flag = &self.flag[p as usize];
            if flag.load(Relaxed) & bit == 0
                && (!filter || self.may_switch((1 - side) * self.n + p as usize, c, w, was))
                && flag.fetch_or(bit, Relaxed) & bit == 0
            {
                dirty[1 - side].push(p);
            }
        }
    }

    /// Whether a changed value lists only the parents it can switch
    /// (`may_switch`): in the discounted game, where no loops are held.
    #[inline]
    fn filters_parents(&self) -> bool {
        self.lambda < 1.0
    }

    /// Whether node `gp` could choose otherwise now that its in-group child
    /// `c` is worth `w` to it (`was` before): `c` is its choice and lost
    /// worth, or `w` beats by more than `TOL` what it chose after some
    /// throw (as [`choose`] decides; where `c` is the choice, that is the
    /// exit of a throw after which it leaves).
    ///
    /// Exact for a node whose last pass kept its choice: one that stays has
    /// no child worth more than its choice plus `TOL` (else the pass would
    /// have switched), so only its choice falling or a child now above that
    /// can move it (a choice that gained keeps beating the other children
    /// and the exits it beat); one that exits after both throws weighs its
    /// best child (`examine`), which was at most the exits plus `TOL`.
    #[inline]
    fn may_switch(&self, gp: usize, c: usize, w: f64, was: f64) -> bool {
        let (side, p) = self.side_of(gp);
        let (m, cur) = (self.mode[gp], self.next[gp]);
        let stays = m & (STAY_N | STAY_S) != 0;
        if cur != NONE && ((cur == c as u32 && w < was) || !stays) {
            return true;
        }
        let x = exit_value;
        let cur_in =
            if stays { -self.lambda * self.val[(1 - side) * self.n + cur as usize] } else { f64::NEG_INFINITY };
        // An exit is read only after a throw where the node leaves (its
        // choice is the child otherwise).
        let now_n = if m & STAY_N != 0 { cur_in } else { x(self.en(p)) };
        if w > now_n + self.tol {
            return true;
        }
        let now_s = if m & STAY_S != 0 { cur_in } else { x(self.es(p)) };
        w > now_s + self.tol
    }

    /// The best exit's code after a normal throw at position `p` (`NONE`:
    /// none).
    #[inline]
    fn en(&self, p: usize) -> u32 {
        self.exits[p][0]
    }

    /// The best exit's code after a special throw at position `p`.
    #[inline]
    fn es(&self, p: usize) -> u32 {
        self.exits[p][1]
    }

    /// Positions of the group (unused indices included).
    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The index in the group of position `p`.
    #[inline]
    fn group_index(&self, p: usize) -> usize {
        self.members.as_ref().map_or(p, |m| m.select(p as u32) as usize)
    }

    #[inline]
    fn state(&self, p: usize, cursor: &mut GroupCursor) -> Option<State> {
        state_at(self.rules, &self.ix, &self.base, self.group_index(p), cursor)
    }

    /// The state of position `p`, built with its moves (so a position: no
    /// check that its index is the one of its class the indexing uses).
    #[inline]
    fn live_state(&self, p: usize) -> State {
        let (slot, i) = place(&self.base, self.group_index(p));
        self.ix[slot].state(i)
    }

    /// Position `id` as built, its children in this part (ascending, each
    /// once) appended to `kids`; children in the group outside the part are
    /// exits of the values in `lower`.
    fn build(
        &self,
        known: &Known,
        lower: Option<&Outputs>,
        cursor: &mut GroupCursor,
        id: usize,
        kids: &mut Vec<u32>,
    ) -> Built {
        let empty = |kind| Built { kind, en: NONE, es: NONE, next: NONE, mode: 0, second: false, crosses: true };
        let Some(st) = self.state(id, cursor) else { return empty(UNUSED) };
        if self.rules.lost(&st) {
            return empty(FIXED);
        }
        let own_slot = match self.classes {
            Some(Classes::Sectors) => place(&self.base, self.group_index(id)).0,
            _ => 0,
        };
        let second = self.class_of(&st, own_slot);
        let mut crosses = true;
        let from = kids.len();
        let (mut en, mut leap) = (NONE, NONE);
        let (mut normal_any, mut special_any) = (false, false);
        let mut first = NONE;
        let better = |cur: u32, c: u32| if cur == NONE || c > cur { c } else { cur };
        // The exits into other sectors: where their codes lie, each fetched
        // as it is found and read once all are (each is a miss of the cache
        // in a large sector's table).
        let mut outside = SmallVec::<[(bool, &u32); 64]>::new();
        // The steps that stay in the group: each one's place in the part's
        // set of positions fetched as it is found, and read, in the moves'
        // order, once all are.
        let mut staying = SmallVec::<[(bool, usize, u64, bool); 64]>::new();
        self.for_each_move(&st, |a, child, inside| {
            let is_leap = matches!(a, Action::Leap { .. });
            special_any = true;
            normal_any |= !is_leap;
            match inside {
                Some((slot, i)) => {
                    if let Some(m) = &self.members {
                        m.prefetch((self.base[slot] + i) as u32);
                    }
                    staying.push((is_leap, slot, i, self.class_of(child, slot)));
                }
                None => {
                    let cell = known.code_cell(child).expect("successor sectors are solved first");
                    prefetch(cell);
                    outside.push((is_leap, cell));
                }
            }
        });
        let mut take_exit = |is_leap: bool, code: u32| {
            if is_leap {
                leap = better(leap, neg_code(code));
            } else {
                en = better(en, neg_code(code));
            }
        };
        for (is_leap, slot, i, class) in staying {
            match self.member(slot, i) {
                Some(c) => {
                    crosses &= class != second;
                    if first == NONE {
                        first = c
                    }
                    kids.push(c);
                }
                None => {
                    let code = lower.map_or(CODE_UNUSED, |o| o.code(self.base[slot] + i));
                    assert_ne!(code, CODE_UNUSED, "a step leads to a part of the group solved later");
                    take_exit(is_leap, code);
                }
            }
        }
        for (is_leap, &code) in outside {
            assert_ne!(code, CODE_UNUSED, "successor sectors are solved first");
            take_exit(is_leap, code);
        }
        let blocked = match self.rules.blocked {
            Blocked::Draw => to_code(0.0),
            _ => to_code(-1.0),
        };
        // A blocked player who passes makes the pass an in-group child after
        // both throws, so a player with no step here has no leap either: the
        // point a leap fills lies on a line with two of its men and next to
        // one of them (the middle of a line neighbours both ends), so a step
        // into it exists. (With a leap and no step, it would pass only after
        // a normal throw, which the model of one set of children for both
        // throws cannot say.)
        debug_assert!(normal_any || !special_any || self.rules.blocked != Blocked::Pass, "a leap without a step");
        if !normal_any {
            en = blocked;
        }
        let es = if special_any {
            match (en, leap) {
                (NONE, l) => l,
                (e, NONE) => e,
                (e, l) => e.max(l),
            }
        } else {
            blocked
        };
        // A first strategy: an exit worth at least 0 (all in-group values
        // start at 0), else the first in-group child.
        let mut mode = if first != NONE { HAS_KIDS } else { 0 };
        if first != NONE {
            if en == NONE || from_code(en) < 0.0 {
                mode |= STAY_N;
            }
            if es == NONE || from_code(es) < 0.0 {
                mode |= STAY_S;
            }
        }
        let next = if mode & (STAY_N | STAY_S) != 0 { first } else { NONE };
        kids[from..].sort_unstable();
        let mut last = from;
        for k in from..kids.len() {
            if k == from || kids[k] != kids[last - 1] {
                kids[last] = kids[k];
                last += 1;
            }
        }
        kids.truncate(last);
        Built { kind: LIVE, en, es, next, mode, second, crosses }
    }

    /// Whether `st`, a live position of the group's sector in `slot`, is of
    /// the second class where the group's positions may fall in two (see
    /// [`Group::two_classes`]). A child's class follows from its state as
    /// generated: a symmetry of the board maps the points of one colour to
    /// those of one colour, and in a group of one sector both sides have as
    /// many men, so the men on either colour are even or odd together and
    /// every state of a position has the indexed one's class.
    #[inline]
    fn class_of(&self, st: &State, slot: usize) -> bool {
        match self.classes {
            Some(Classes::Sectors) => slot == 1,
            Some(Classes::Colour(one)) => ((st.own.0 | st.other.0) & one.0).count_ones() % 2 == 1,
            None => false,
        }
    }

    /// Calls `f` with every move of the side to move in `st` after a
    /// special throw (which allows all a normal one does, and the leaps),
    /// its child, and for a step that stays in the group (it takes nothing,
    /// the child is not lost and lies in one of the group's sectors) the
    /// child's sector slot and index there.
    #[inline]
    fn for_each_move(&self, st: &State, mut f: impl FnMut(Action, &State, Option<(usize, u64)>)) {
        // A step that takes nothing leaves the other side's men as they were
        // and puts that side to move: every such child shares its sector and
        // the part of its index those men decide, found once.
        let mut shared: Option<Option<(usize, OwnPart)>> = None;
        self.rules.for_each_action(st, Throw::Special, |a, child| {
            let inside = if a.captures().is_empty() && !self.rules.lost(&child) {
                debug_assert_eq!(child.own, st.other);
                let place = *shared.get_or_insert_with(|| self.own_place(&child));
                place.map(|(slot, part)| (slot, self.ix[slot].index_with(part, child.other)))
            } else {
                None
            };
            f(a, &child, inside)
        });
    }

    /// The group's sector of `st` (its slot), if it is one of them, and the
    /// part of the index that the side to move's men decide.
    #[inline]
    fn own_place(&self, st: &State) -> Option<(usize, OwnPart)> {
        let slot = self.slot_of(st)?;
        Some((slot, self.ix[slot].own_part(st.own)))
    }

    /// The group's sector of `st` (its slot), if it is one of them.
    #[inline]
    fn slot_of(&self, st: &State) -> Option<usize> {
        let s = Sector::of(st);
        self.ix.iter().position(|x| x.sector() == s)
    }

    /// The position id of index `i` of the group's sector in `slot`, if it
    /// is a position of this part.
    #[inline]
    fn member(&self, slot: usize, i: u64) -> Option<u32> {
        let at = self.base[slot] + i;
        match &self.members {
            None => Some(at as u32),
            Some(m) => m.slot(at as u32),
        }
    }

    /// Whether position `p` was built with its in-group children (live
    /// then; settled since, perhaps).
    #[inline]
    fn has_moves(&self, p: usize) -> bool {
        matches!(self.kind[p], LIVE | SURE)
    }

    /// The in-group children of a position.
    #[inline]
    fn kids(&self, p: usize) -> Adj<'_> {
        if self.moves.lists_children() { Adj::Stored(self.kids.get(p)) } else { Adj::Made(self.make_kids(p)) }
    }

    /// The in-group parents of a position.
    #[inline]
    fn parents(&self, c: usize) -> Adj<'_> {
        if self.moves.lists_parents() { Adj::Stored(self.parents.get(c)) } else { Adj::Made(self.make_parents(c)) }
    }

    /// The in-group children of position `p` as [`Group::build`] lists them,
    /// generated.
    fn make_kids(&self, p: usize) -> SmallVec<[u32; 64]> {
        let (mut at, mut out) = (SmallVec::new(), SmallVec::new());
        self.kid_places(p, &mut at);
        self.positions_at(&at, &mut out);
        out
    }

    /// The in-group children of position `p` (if it was built with its
    /// moves) as group indices ([`Group::members_of`]), put into `at`
    /// (empty).
    fn kid_places(&self, p: usize, at: &mut SmallVec<[u64; 64]>) {
        if !self.has_moves(p) {
            return;
        }
        let st = self.live_state(p);
        // The moves that take nothing leave the other side's men as they
        // were and put that side to move: the children share their sector
        // and the part of their index those men decide.
        let mut shared: Option<Option<(usize, OwnPart)>> = None;
        self.rules.for_each_quiet_move(&st, |child| {
            let place = *shared.get_or_insert_with(|| self.own_place(&child));
            if let Some((slot, part)) = place {
                at.push(self.base[slot] + self.ix[slot].index_with(part, child.other));
            }
        });
        self.members_of(at);
    }

    /// Sorts the group indices `at` and keeps each once, and asks for the
    /// lookups of the part's members set that [`Group::positions_at`]
    /// makes of them (in the large groups each is a miss of the cache).
    #[inline]
    fn members_of(&self, at: &mut SmallVec<[u64; 64]>) {
        at.sort_unstable();
        at.dedup();
        if let Some(m) = &self.members {
            for &a in at.iter() {
                m.prefetch(a as u32);
            }
        }
    }

    /// The positions of this part at the group indices `at` (ascending,
    /// each once) appended to `out`, ascending.
    #[inline]
    fn positions_at(&self, at: &[u64], out: &mut SmallVec<[u32; 64]>) {
        match &self.members {
            None => out.extend(at.iter().map(|&a| a as u32)),
            Some(m) => out.extend(at.iter().filter_map(|&a| m.slot(a as u32))),
        }
    }

    /// The in-group parents of position `c`, generated by the moves run
    /// backwards: the positions of this part built with `c` among their
    /// children. (Every position that a step taking nothing, or a pass,
    /// leads from is among the predecessors, and the indices of symmetric
    /// positions are one, so these are exactly the lists' parents.)
    fn make_parents(&self, c: usize) -> SmallVec<[u32; 64]> {
        let (mut at, mut out) = (SmallVec::new(), SmallVec::new());
        self.parent_places(c, &mut at);
        self.positions_at(&at, &mut out);
        for &p in &out {
            prefetch(&self.kind[p as usize]);
        }
        self.keep_parents(&mut out);
        out
    }

    /// The group indices ([`Group::members_of`]) of the positions that a
    /// step taking nothing, or a pass, leads from to position `c` (if it
    /// was built with its moves): those of this part that were built with
    /// theirs ([`Group::keep_parents`]) are its in-group parents; put into
    /// `at` (empty).
    fn parent_places(&self, c: usize, at: &mut SmallVec<[u64; 64]>) {
        if !self.has_moves(c) {
            return;
        }
        let st = self.live_state(c);
        self.rules.for_each_predecessor(&st, |q| {
            if let Some(slot) = self.slot_of(&q) {
                at.push(self.base[slot] + self.ix[slot].index(&q));
            }
        });
        self.members_of(at);
    }

    /// Keeps of the positions of [`Group::parent_places`] those built with
    /// their moves: the in-group parents.
    #[inline]
    fn keep_parents(&self, ps: &mut SmallVec<[u32; 64]>) {
        ps.retain(|p| self.has_moves(*p as usize));
    }

    /// `v = a − b · v(successor)` at a node under its strategy, `b` in 72nds.
    #[inline]
    fn coef(&self, g: usize) -> (f64, u32) {
        let (_, p) = self.side_of(g);
        let m = self.mode[g];
        let (mut a, mut b) = (0.0, 0u32);
        if m & STAY_N != 0 {
            b += self.w_n;
        } else if self.w_n > 0 {
            a += self.w_n as f64 * from_code(self.en(p));
        }
        if m & STAY_S != 0 {
            b += self.w_s;
        } else if self.w_s > 0 {
            a += self.w_s as f64 * from_code(self.es(p));
        }
        (a / 72.0, b)
    }

    /// The side to move at node `g` and its position.
    #[inline]
    fn side_of(&self, g: usize) -> (usize, usize) {
        if g < self.n { (FIRST, g) } else { (SECOND, g - self.n) }
    }

    /// Appends the nodes not yet marked whose strategy moves on into node
    /// `y` (the in-group parents of its position, on the other side), and
    /// marks them `ON_PATH`. A node moves on into one node only, so only the
    /// search from `y` can find it: searches from different nodes may run
    /// at once.
    #[inline]
    fn movers_into(&self, y: usize, parents: &[u32], mark: &[AtomicU8], out: &mut Vec<u32>) {
        let n = self.n;
        let (side, c) = self.side_of(y);
        let other = 1 - side;
        for &p in parents {
            let g = other * n + p as usize;
            if self.next[g] == c as u32 && mark[g].load(Relaxed) == KEEP && self.moves_on(g) {
                mark[g].store(ON_PATH, Relaxed);
                out.push(g as u32);
            }
        }
    }

    /// Hints the cache to fetch what is read of the in-group parents of the
    /// nodes in `list` a few places after `i`: the bounds of their lists,
    /// the lists, and what `each(side, p)` asks for each parent `p` of a
    /// node of `side` (each stage a step nearer).
    #[inline]
    fn prefetch_parents_with(&self, list: &[u32], i: usize, each: impl Fn(usize, usize)) {
        if !self.moves.lists_parents() {
            return;
        }
        let pos = |z: u32| self.side_of(z as usize).1;
        if let Some(&z) = list.get(i + 3 * PREFETCH_AHEAD) {
            prefetch(&self.parents.off[pos(z)]);
        }
        if let Some(&z) = list.get(i + 2 * PREFETCH_AHEAD)
            && let Some(first) = self.parents.items.get(self.parents.start(pos(z)))
        {
            prefetch(first);
        }
        if let Some(&z) = list.get(i + PREFETCH_AHEAD) {
            let (side, c) = self.side_of(z as usize);
            for &p in self.parents(c).iter() {
                each(side, p as usize);
            }
        }
    }

    /// [`Group::prefetch_parents_with`] the entry of `arr` for each parent,
    /// by node on the other side (`by_node`) or by position.
    #[inline]
    fn prefetch_parents<T>(&self, list: &[u32], i: usize, arr: &[T], by_node: bool) {
        let n = self.n;
        self.prefetch_parents_with(list, i, |side, p| prefetch(&arr[if by_node { (1 - side) * n } else { 0 } + p]));
    }

    /// Hints the cache to fetch what [`Group::changed`] reads of the parent
    /// node `g` where a changed value lists only the parents it can switch:
    /// its position's flag, its choice and its position's exits (only the
    /// flag where it lists them all).
    #[inline]
    fn fetch_for_changed(&self, g: usize) {
        let p = self.side_of(g).1;
        prefetch(&self.flag[p]);
        if self.filters_parents() {
            prefetch(&self.next[g]);
            prefetch(&self.mode[g]);
            prefetch(&self.exits[p]);
        }
    }

    /// The in-group parents of `nodes[i]` if its value changed (`moved`),
    /// where this is called with places `i` that rise: those the backward
    /// search kept (what [`Group::changed`] reads of those of a few places
    /// on fetched meanwhile), else generated ([`ParentsAhead`]).
    #[inline]
    fn parents_of_changed<'k>(
        &'k self,
        ahead: &mut ParentsAhead,
        kept: Kept<'k>,
        nodes: &[u32],
        i: usize,
        moved: impl Fn(usize) -> bool,
    ) -> Option<Adj<'k>> {
        if !kept.has(i) {
            return moved(i).then(|| ahead.get(self, nodes, i, moved, |gp| self.fetch_for_changed(gp)));
        }
        let j = i + PREFETCH_AHEAD;
        if j < nodes.len() && kept.has(j) && moved(j) {
            let other = (1 - self.side_of(nodes[j] as usize).0) * self.n;
            for &p in kept.of(j) {
                self.fetch_for_changed(other + p as usize);
            }
        }
        moved(i).then(|| Adj::Stored(kept.of(i)))
    }

    /// Hints the cache to fetch what the search backwards along the
    /// strategies ([`Group::movers_into`]) reads of the parents of the nodes
    /// in `list` a few places after `i`: each one's successor, and a stage
    /// later, for those that move into the node, its mark and choice bits.
    #[inline]
    fn prefetch_movers<M>(&self, list: &[u32], i: usize, mark: &[M]) {
        self.prefetch_parents(list, i, &self.next, true);
        if self.moves.lists_parents()
            && let Some(&z) = list.get(i + PREFETCH_AHEAD / 2)
        {
            let (side, c) = self.side_of(z as usize);
            let other = (1 - side) * self.n;
            for &p in self.parents(c).iter() {
                let g = other + p as usize;
                if self.next[g] == c as u32 {
                    prefetch(&mark[g]);
                    prefetch(&self.mode[g]);
                }
            }
        }
    }

    /// Hints the cache to fetch what [`Group::changed`] reads of the
    /// parents of the nodes in `list` a few places after `i`: their flags
    /// and, where a changed value lists only the parents it can switch,
    /// their choices and exits, and a stage later the value of each one's
    /// in-group choice.
    #[inline]
    fn prefetch_changed(&self, list: &[u32], i: usize) {
        let n = self.n;
        if !self.filters_parents() {
            self.prefetch_parents(list, i, &self.flag, false);
            return;
        }
        self.prefetch_parents_with(list, i, |side, p| self.fetch_for_changed((1 - side) * n + p));
        if self.moves.lists_parents()
            && let Some(&z) = list.get(i + PREFETCH_AHEAD / 2)
        {
            let (side, c) = self.side_of(z as usize);
            for &p in self.parents(c).iter() {
                let cur = self.next[(1 - side) * n + p as usize];
                if cur != NONE {
                    prefetch(&self.val[side * n + cur as usize]);
                }
            }
        }
    }

    /// Hints the cache to fetch the entries of `arr` for the in-group
    /// children of position `p` (where they are stored: generating them
    /// would cost more than the fetch saves).
    #[inline]
    fn prefetch_kids<T>(&self, p: usize, arr: &[T]) {
        if self.moves.lists_children() {
            for &c in self.kids.get(p) {
                prefetch(&arr[c as usize]);
            }
        }
    }

    /// Hints the cache to fetch what following the strategies reads at node
    /// `g` (its mark, choice, exits and value) all at once, before the walk
    /// comes to it.
    #[inline]
    fn prefetch_node<M, V>(&self, g: usize, mark: &[M], val: &[V]) {
        let p = self.side_of(g).1;
        prefetch(&mark[g]);
        prefetch(&self.mode[g]);
        prefetch(&self.next[g]);
        prefetch(&self.exits[p]);
        prefetch(&val[g]);
    }

    /// Whether node `g`'s strategy moves on to its in-group successor after
    /// some throw (`coef(g).1 != 0`).
    #[inline]
    fn moves_on(&self, g: usize) -> bool {
        let m = self.mode[g];
        (m & STAY_N != 0 && self.w_n > 0) || (m & STAY_S != 0 && self.w_s > 0)
    }

    /// The weight of the successor's value for a chance `b` (in 72nds) of
    /// staying.
    #[inline]
    fn stay(&self, b: u32) -> f64 {
        self.lambda * b as f64 / 72.0
    }

    /// The node reached from node `g` under its strategy.
    #[inline]
    fn succ(&self, g: usize) -> usize {
        let other = if self.side_of(g).0 == FIRST { self.n } else { 0 };
        other + self.next[g] as usize
    }

    /// The exact values of the current pair of strategies (up to rounding).
    pub fn evaluate(&mut self) {
        let t = std::time::Instant::now();
        if self.whole || self.full_passes || !self.evaluate_switched() {
            self.stats.evaluated += if self.play == Play::Both { 2 * self.n } else { self.n } as u64;
            self.evaluate_all();
            self.switched.clear();
            self.whole = false;
            self.mark_all_dirty();
        }
        self.stats.seconds[1] += t.elapsed().as_secs_f64();
    }

    /// The exact values again after some nodes switched: only the nodes
    /// whose path runs through a switched node can change (the others keep
    /// their path, hence their value), and each node whose value changed
    /// sends its parents to the next pass of the other side. Returns
    /// `false`, with no value, choice or list of the next passes changed
    /// (the switched nodes are forgotten), where those nodes are more than
    /// the lists' bound: the whole evaluation is then the one to make.
    fn evaluate_switched(&mut self) -> bool {
        let cap = self.list_cap();
        let batch = (cap >> BATCH_SHARE).max(PARALLEL_LEVEL);
        let mut mark = std::mem::take(&mut self.mark);
        let mut todo = std::mem::take(&mut self.switched);
        // Nodes found are marked `ON_PATH` until all are found, then `TO_DO`;
        // a node switched twice is taken once.
        let Scratch { mut nodes, mut old, mut path, mut ends, mut parts, mut kin, mut kin_end } =
            std::mem::take(&mut self.scratch);
        nodes.clear();
        ends.clear();
        kin.clear();
        kin_end.clear();
        // Where the parents are generated, those found are kept for the
        // changed values, for the first nodes, as many as the budget holds.
        let budget = if self.moves.lists_parents() { 0 } else { self.kin_budget() };
        let mut keeping = budget > 0;
        for &g in &todo {
            if mark[g as usize] == KEEP {
                mark[g as usize] = ON_PATH;
                nodes.push(g);
            }
        }
        // Backwards along the strategies, a level at a time: the parents that
        // move on into a node found. A node moves on into one node only, so
        // each is found once; large levels are searched in parallel, some
        // chunks at a time, until the nodes found pass the bound.
        let marks = atomic_marks(&mut mark);
        let mut lo = 0;
        while lo < nodes.len() && nodes.len() <= cap {
            let hi = nodes.len();
            if hi - lo < PARALLEL_LEVEL {
                let mut ahead = ParentsAhead::default();
                for i in lo..hi {
                    self.prefetch_movers(&nodes, i, marks);
                    let parents = ahead.get(self, &nodes[..hi], i, |_| true, |g| prefetch(&self.next[g]));
                    self.movers_into(nodes[i] as usize, &parents, marks, &mut nodes);
                    if keeping {
                        keeping = keep_kin(&mut kin, &mut kin_end, &parents, budget);
                    }
                }
            } else {
                let mut at = lo;
                while at < hi && nodes.len() <= cap {
                    let to = at.saturating_add(batch).min(hi);
                    let chunks = (to - at).div_ceil(CHUNK);
                    grow_parts(&mut parts, chunks);
                    let (level, _) = nodes.split_at(to);
                    // Each chunk keeps its first nodes' parents (each list
                    // after its length) within its share of what the budget
                    // has left; the lists are kept up to the first node a
                    // chunk did not keep.
                    let quota = if keeping { (budget - kin.len() - kin_end.len()) / chunks } else { 0 };
                    level[at..].par_chunks(CHUNK).zip(parts[..chunks].par_iter_mut()).for_each(|(ys, [out, found])| {
                        out.clear();
                        found.clear();
                        let mut ahead = ParentsAhead::default();
                        let mut fits = keeping;
                        for (i, &y) in ys.iter().enumerate() {
                            self.prefetch_movers(ys, i, marks);
                            let parents = ahead.get(self, ys, i, |_| true, |g| prefetch(&self.next[g]));
                            self.movers_into(y as usize, &parents, marks, out);
                            fits = fits && found.len() + 1 + parents.len() <= quota;
                            if fits {
                                found.push(parents.len() as u32);
                                found.extend_from_slice(&parents);
                            }
                        }
                    });
                    for (c, [part, found]) in parts[..chunks].iter_mut().enumerate() {
                        nodes.extend_from_slice(part);
                        let (mut k, mut lists) = (0, 0);
                        while keeping && k < found.len() {
                            let len = found[k] as usize;
                            keeping = keep_kin(&mut kin, &mut kin_end, &found[k + 1..k + 1 + len], budget);
                            (k, lists) = (k + 1 + len, lists + 1);
                        }
                        keeping = keeping && lists == CHUNK.min(to - at - c * CHUNK);
                        *found = Vec::new();
                    }
                    at = to;
                }
            }
            ends.push(hi);
            lo = hi;
        }
        let fits = nodes.len() <= cap;
        if !fits {
            set_marks(&mut mark, &nodes, KEEP);
            nodes.clear();
            self.mark = mark;
        } else {
            self.stats.evaluated += nodes.len() as u64;
            self.stats.kept += kin_end.len() as u64;
            set_marks(&mut mark, &nodes, TO_DO);
            old.clear();
            old.par_extend(nodes.par_iter().with_min_len(PARALLEL_LEVEL).map(|&g| self.val[g as usize]));
            let mut val = std::mem::take(&mut self.val);
            // The switched nodes along their paths and around the cycles they
            // close (many of them by all threads at once); then a level at a
            // time, each node from its successor, which is in the level
            // before (large levels in parallel).
            let seeds = &nodes[..ends.first().copied().unwrap_or(0)];
            if walks(seeds.len()) {
                for s in self.walk_list(&mut mark, &mut val, seeds, &Evaluation) {
                    if mark[s as usize] == TO_DO {
                        self.follow(s as usize, &mut mark, &mut val, &mut path, &Evaluation);
                    }
                }
            }
            for &s in seeds {
                if mark[s as usize] == TO_DO {
                    self.follow(s as usize, &mut mark, &mut val, &mut path, &Evaluation);
                }
            }
            let marks = atomic_marks(&mut mark);
            let vals = SharedValues::new(&mut val);
            let step = |g: u32| {
                let g = g as usize;
                if marks[g].load(Relaxed) == TO_DO {
                    let (a, b) = self.coef(g);
                    vals.set(g, a - self.stay(b) * vals.get(self.succ(g)));
                    marks[g].store(DONE, Relaxed);
                }
            };
            for w in ends.windows(2) {
                let level = &nodes[w[0]..w[1]];
                if level.len() < PARALLEL_LEVEL {
                    level.iter().for_each(|&g| step(g));
                } else {
                    level.par_iter().with_min_len(CHUNK).for_each(|&g| step(g));
                }
            }
            set_marks(&mut mark, &nodes, KEEP);
            self.val = val;
            self.mark = mark;
            // The parents of every node whose value changed look again (large
            // evaluations in parallel, some chunks at a time; the flags keep
            // each parent once).
            if nodes.len() < PARALLEL_LEVEL {
                let mut dirty = std::mem::take(&mut self.dirty);
                let mut ahead = ParentsAhead::default();
                let moved = |i: usize| self.val[nodes[i] as usize].to_bits() != old[i].to_bits();
                let kept = Kept { kin: &kin, end: &kin_end, base: 0 };
                for (i, (&g, &o)) in nodes.iter().zip(&old).enumerate() {
                    self.prefetch_changed(&nodes, i);
                    if let Some(parents) = self.parents_of_changed(&mut ahead, kept, &nodes, i, moved) {
                        self.changed(g as usize, o, &parents, &mut dirty);
                    }
                }
                self.dirty = dirty;
                self.bound_dirty();
            } else {
                let (kin, kin_end) = (&kin, &kin_end);
                for (b, (ns, os)) in nodes.chunks(batch).zip(old.chunks(batch)).enumerate() {
                    let chunks = ns.len().div_ceil(CHUNK);
                    grow_parts(&mut parts, chunks);
                    let this = &*self;
                    ns.par_chunks(CHUNK)
                        .zip(os.par_chunks(CHUNK))
                        .zip(parts[..chunks].par_iter_mut())
                        .enumerate()
                        .for_each(|(c, ((ns, os), out))| {
                            out[FIRST].clear();
                            out[SECOND].clear();
                            let kept = Kept { kin, end: kin_end, base: b * batch + c * CHUNK };
                            let mut ahead = ParentsAhead::default();
                            let moved = |i: usize| this.val[ns[i] as usize].to_bits() != os[i].to_bits();
                            for (i, (&g, &o)) in ns.iter().zip(os).enumerate() {
                                this.prefetch_changed(ns, i);
                                if let Some(parents) = this.parents_of_changed(&mut ahead, kept, ns, i, moved) {
                                    this.changed(g as usize, o, &parents, out);
                                }
                            }
                        });
                    for [a, b] in &parts[..chunks] {
                        for (side, part) in [(FIRST, a), (SECOND, b)] {
                            if !self.scan[side] {
                                self.dirty[side].extend_from_slice(part);
                            }
                        }
                    }
                    self.bound_dirty();
                }
            }
        }
        todo.clear();
        self.switched = todo;
        self.scratch = Scratch { nodes, old, path, ends, parts, kin, kin_end };
        fits
    }

    /// Every live node's value, each path followed once.
    fn evaluate_all(&mut self) {
        let mut mark = std::mem::take(&mut self.mark);
        let mut path = std::mem::take(&mut self.scratch.path);
        let mut val = std::mem::take(&mut self.val);
        self.follow_all(&mut mark, &mut val, &mut path, &Evaluation);
        self.scratch.path = path;
        self.val = val;
        self.mark = mark;
    }

    /// Every live node's quantity under `along`, each path followed once
    /// (`mark` is all `KEEP` after). Large groups are walked by all threads
    /// at once ([`Group::walk`]); the paths a walker gave up, and every
    /// node still to do, are followed after, one at a time. The quantities
    /// do not depend on who followed which path: a node's comes from its
    /// successor's, and a cycle's are computed from its least node.
    fn follow_all(&self, mark: &mut [u8], val: &mut [f64], path: &mut Vec<(u32, f64, f64)>, along: &impl Along) {
        mark.par_iter_mut().with_min_len(CHUNK).enumerate().for_each(|(g, m)| {
            let (side, p) = self.side_of(g);
            *m = if self.kind[p] == LIVE && self.in_play(side, p) { TO_DO } else { KEEP };
        });
        if walks(mark.len()) {
            let given_up = self.walk_all(mark, val, along);
            for s in given_up {
                if mark[s as usize] == TO_DO {
                    self.follow(s as usize, mark, val, path, along);
                }
            }
        }
        for s in 0..mark.len() {
            if mark[s] == TO_DO {
                self.follow(s, mark, val, path, along);
            }
        }
        mark.fill(KEEP);
    }

    /// The nodes still to do walked from by all threads at once, each along
    /// its path as [`Group::follow`] does; returns the nodes whose walk was
    /// given up (it met another walker's path).
    fn walk_all(&self, mark: &mut [u8], val: &mut [f64], along: &impl Along) -> Vec<u32> {
        let n = mark.len();
        self.walk_chunks(mark, val, n.div_ceil(CHUNK), |c| c * CHUNK..((c + 1) * CHUNK).min(n), along)
    }

    /// The nodes of `list` still to do walked from by all threads at once
    /// (as [`Group::walk_all`] walks from every node); returns the nodes
    /// whose walk was given up.
    fn walk_list(&self, mark: &mut [u8], val: &mut [f64], list: &[u32], along: &impl Along) -> Vec<u32> {
        let chunks = list.len().div_ceil(CHUNK);
        self.walk_chunks(
            mark,
            val,
            chunks,
            |c| list[c * CHUNK..((c + 1) * CHUNK).min(list.len())].iter().map(|&s| s as usize),
            along,
        )
    }

    /// The walks from the nodes of `chunks` chunks (`chunk(c)` lists the
    /// nodes of chunk `c`), by all threads at once.
    fn walk_chunks<I: Iterator<Item = usize>>(
        &self,
        mark: &mut [u8],
        val: &mut [f64],
        chunks: usize,
        chunk: impl Fn(usize) -> I + Sync,
        along: &impl Along,
    ) -> Vec<u32> {
        let marks = atomic_marks(mark);
        let vals = SharedValues::new(val);
        (0..chunks)
            .into_par_iter()
            .map_init(Vec::new, |path, c| {
                let tag = WALKING | rayon::current_thread_index().unwrap_or(0) as u8;
                let mut given_up = Vec::new();
                for s in chunk(c) {
                    if marks[s].load(Relaxed) == TO_DO && !self.walk(s, tag, marks, &vals, path, along) {
                        given_up.push(s as u32);
                    }
                }
                given_up
            })
            .flatten()
            .collect()
    }

    /// [`Group::follow`] from node `s` beside other walkers: the nodes of
    /// its path are taken (marked `tag`, this walker's) before they are
    /// computed, and a value is read only once its node is `DONE` (release
    /// and acquire). Meeting a node another walker holds, it frees its path
    /// and returns `false`.
    fn walk(
        &self,
        s: usize,
        tag: u8,
        marks: &[AtomicU8],
        vals: &SharedValues,
        path: &mut Vec<(u32, f64, f64)>,
        along: &impl Along,
    ) -> bool {
        path.clear();
        let mut x = s;
        loop {
            let m = marks[x].load(Acquire);
            if m == KEEP || m == DONE {
                break;
            }
            if m == tag {
                let j = path.iter().rposition(|p| p.0 as usize == x).expect("on the path");
                let cyc = least_first(&mut path[j..]);
                along.cycle(cyc);
                for &(c, v, _) in cyc.iter() {
                    vals.set(c as usize, v);
                    marks[c as usize].store(DONE, Release);
                }
                break;
            }
            if m != TO_DO {
                for p in path.iter() {
                    marks[p.0 as usize].store(TO_DO, Relaxed);
                }
                return false;
            }
            if marks[x].compare_exchange(TO_DO, tag, Acquire, Relaxed).is_err() {
                continue;
            }
            let (a, b) = self.coef(x);
            if b == 0 {
                vals.set(x, along.fixed(a));
                marks[x].store(DONE, Release);
                break;
            }
            path.push((x as u32, a, self.stay(b)));
            x = self.succ(x);
            self.prefetch_node(x, marks, vals.0);
        }
        for &(p, a, w) in path.iter().rev() {
            let p = p as usize;
            if marks[p].load(Relaxed) != DONE {
                vals.set(p, along.step(a, w, vals.get(self.succ(p))));
                marks[p].store(DONE, Release);
            }
        }
        true
    }

    /// Computes node `s`'s quantity and every node's after it under the
    /// strategies that is still to do (`mark`): along its path until a node
    /// whose quantity is known (`KEEP`, `DONE`) or that depends on no
    /// successor (an exit after both throws), or around the cycle it closes;
    /// then back along the path.
    fn follow(&self, s: usize, mark: &mut [u8], val: &mut [f64], path: &mut Vec<(u32, f64, f64)>, along: &impl Along) {
        path.clear();
        let mut x = s;
        loop {
            if mark[x] == KEEP || mark[x] == DONE {
                break;
            }
            if mark[x] == ON_PATH {
                let j = path.iter().rposition(|p| p.0 as usize == x).expect("on the path");
                let cyc = least_first(&mut path[j..]);
                along.cycle(cyc);
                for &(c, v, _) in cyc.iter() {
                    val[c as usize] = v;
                    mark[c as usize] = DONE;
                }
                break;
            }
            let (a, b) = self.coef(x);
            if b == 0 {
                val[x] = along.fixed(a);
                mark[x] = DONE;
                break;
            }
            mark[x] = ON_PATH;
            path.push((x as u32, a, self.stay(b)));
            x = self.succ(x);
            self.prefetch_node(x, mark, val);
        }
        for &(p, a, w) in path.iter().rev() {
            let p = p as usize;
            if mark[p] != DONE {
                val[p] = along.step(a, w, val[self.succ(p)]);
                mark[p] = DONE;
            }
        }
    }

    /// A bound on the rounding error of the values the current strategies
    /// give (as `evaluate_all` computes them; see `RoundingBound`), with
    /// `mark` (a mark per node) as scratch.
    fn arithmetic_bound(&self, mark: &mut [u8]) -> f64 {
        let mut err = vec![0.0; 2 * self.n];
        self.follow_all(mark, &mut err, &mut Vec::new(), &RoundingBound);
        err.into_par_iter().reduce(|| 0.0, f64::max) * UNIT
    }

    /// One improvement pass for one side: each of its nodes switches to a
    /// strictly better choice. Returns how many switched.
    pub fn improve(&mut self, side: usize) -> u64 {
        let t = std::time::Instant::now();
        let r = self.improve_pass(side);
        self.stats.seconds[2] += t.elapsed().as_secs_f64();
        if r > 0 {
            self.idle_hold = None;
        }
        r
    }

    fn improve_pass(&mut self, side: usize) -> u64 {
        self.stats.rounds += 1;
        self.stats.one_copy_rounds += u64::from(self.play != Play::Both);
        let n = self.n;
        let bit = 1u8 << side;
        let mut list = std::mem::take(&mut self.dirty[side]);
        let mut picks = std::mem::take(&mut self.picks);
        let (mut count, mut worst, mut slack) = (0, 0f64, 0f64);
        let scanned = self.full_passes || self.scan[side];
        // A step takes at most as many positions as a list holds.
        let block = self.list_cap().min(n).max(1);
        let mut pass = |this: &mut Self, block: Block| {
            let (e, c, w, s) = this.pass_over(side, block, &mut picks);
            this.stats.examined += e;
            count += c;
            worst = worst.max(w);
            slack = slack.max(s);
        };
        if scanned {
            // The positions in order, a block at a time: every live one in
            // play (whole passes), or those whose flag is set.
            for lo in (0..n).step_by(block) {
                pass(self, Block::Range(lo, (lo + block).min(n)));
            }
            self.scan[side] = false;
        } else {
            for &p in &list {
                *self.flag[p as usize].get_mut() &= !bit;
            }
            list.par_sort_unstable();
            for part in list.chunks(block) {
                pass(self, Block::Listed(part));
            }
        }
        self.picks = picks;
        if self.check_passes {
            self.recheck(side, (!scanned).then_some(&list[..]));
        }
        list.clear();
        self.dirty[side] = list;
        self.stats.residual = worst;
        self.stats.slack = slack;
        count
    }

    /// Whether an improvement pass that scans examines position `p` for
    /// `side`: live, in play, and (but in whole passes) its flag set.
    #[inline]
    fn scanned(&self, side: usize, p: usize) -> bool {
        self.kind[p] == LIVE
            && self.in_play(side, p)
            && (self.full_passes || self.flag[p].load(Relaxed) & (1 << side) != 0)
    }

    /// One step of an improvement pass: the positions of `block`
    /// (ascending; a range is scanned, the positions taken lose their
    /// flag) examined in parallel, then their switches made in order.
    /// Returns how many were examined and switched, the largest gain and
    /// the largest shortfall.
    fn pass_over(&mut self, side: usize, block: Block, picks: &mut Vec<Vec<Pick>>) -> (u64, u64, f64, f64) {
        const TASK: usize = 1 << 12;
        let n = self.n;
        let tasks = match block {
            Block::Listed(ps) => ps.len(),
            Block::Range(lo, hi) => hi - lo,
        }
        .div_ceil(TASK);
        if picks.len() < tasks {
            picks.resize_with(tasks, Vec::new);
        }
        let this = &*self;
        let kids_val = &this.val[(1 - side) * n..(2 - side) * n];
        // Each task's new choices where they change, in order.
        let examined = |p: usize| this.kind[p] == LIVE && this.mode[side * n + p] & HAS_KIDS != 0;
        let look = |p: usize, kids: &[u32], out: &mut Vec<Pick>, worst: &mut f64, slack: &mut f64| {
            let g = side * n + p;
            let (m, next, gain, short) = this.examine_with(side, p, kids);
            *worst = worst.max(gain);
            *slack = slack.max(short);
            if m != this.mode[g] || next != this.next[g] {
                out.push((p as u32, m, next));
            }
        };
        let examine_list = |ps: &[u32], out: &mut Vec<Pick>| {
            let (mut worst, mut slack) = (0f64, 0f64);
            match this.moves {
                Moves::Stored | Moves::Half => {
                    for (i, &p) in ps.iter().enumerate() {
                        // The children's values of a position a few places
                        // on are fetched while this one is examined.
                        if let Some(&q) = ps.get(i + PREFETCH_AHEAD) {
                            this.prefetch_kids(q as usize, kids_val);
                        }
                        if examined(p as usize) {
                            look(p as usize, this.kids.get(p as usize), out, &mut worst, &mut slack);
                        }
                    }
                }
                Moves::Generated => {
                    // The children of the positions a few places on are
                    // generated, and their values fetched, while this one is
                    // examined.
                    let mut walk = KidsAhead::default();
                    let at = |k: usize| ps.get(k).map(|&q| q as usize).filter(|&q| examined(q));
                    for (i, &p) in ps.iter().enumerate() {
                        if examined(p as usize) {
                            let kids = walk.get(this, i, at, |c| prefetch(&kids_val[c]));
                            look(p as usize, &kids, out, &mut worst, &mut slack);
                        }
                    }
                }
            }
            (ps.len() as u64, worst, slack)
        };
        let max = |(e1, w1, s1): (u64, f64, f64), (e2, w2, s2): (u64, f64, f64)| (e1 + e2, w1.max(w2), s1.max(s2));
        let (examined, worst, slack) = match block {
            Block::Listed(ps) => ps
                .par_chunks(TASK)
                .zip(picks[..tasks].par_iter_mut())
                .map(|(ps, out)| {
                    out.clear();
                    examine_list(ps, out)
                })
                .reduce(|| (0, 0.0, 0.0), max),
            Block::Range(lo, hi) => picks[..tasks]
                .par_iter_mut()
                .enumerate()
                .map(|(k, out)| {
                    out.clear();
                    // The positions taken first (their flags cleared: only
                    // this task reads or writes them now), then examined as
                    // a list is.
                    let from = lo + k * TASK;
                    let mut taken = [0u32; TASK];
                    let mut m = 0;
                    for p in from..(from + TASK).min(hi) {
                        if this.scanned(side, p) {
                            let f = &this.flag[p];
                            f.store(f.load(Relaxed) & !(1 << side), Relaxed);
                            taken[m] = p as u32;
                            m += 1;
                        }
                    }
                    examine_list(&taken[..m], out)
                })
                .reduce(|| (0, 0.0, 0.0), max),
        };
        let mut count = 0;
        for &(p, m, next) in picks[..tasks].iter().flatten() {
            let g = side * n + p as usize;
            if m & !CAN_STAY != self.mode[g] & !CAN_STAY || next != self.next[g] {
                count += 1;
                self.switched(g);
            }
            self.mode[g] = m;
            self.next[g] = next;
        }
        (examined, count, worst, slack)
    }

    /// Every position of `side` in play whose choice a pass over `listed`
    /// left as it was keeps it when examined again (see `check_passes`).
    fn recheck(&mut self, side: usize, listed: Option<&[u32]>) {
        let n = self.n;
        for p in 0..n {
            let g = side * n + p;
            if self.kind[p] != LIVE || self.mode[g] & HAS_KIDS == 0 || !self.in_play(side, p) {
                continue;
            }
            let (m, next, _, _) = self.examine(side, p);
            assert!(
                m & !CAN_STAY == self.mode[g] & !CAN_STAY && next == self.next[g],
                "node {g} (listed: {}, lambda {}) would switch from {:#x}/{} to {m:#x}/{next}",
                listed.map_or("scanned".to_string(), |l| l.binary_search(&(p as u32)).is_ok().to_string()),
                self.lambda,
                self.mode[g],
                self.next[g]
            );
            self.stats.rechecked += 1;
        }
    }

    /// What an improvement pass makes of node `side · n + p`: its new choice
    /// bits, its new in-group successor, how much better that is and how
    /// much worse than the best choice.
    #[inline]
    fn examine(&self, side: usize, p: usize) -> (u8, u32, f64, f64) {
        self.examine_with(side, p, &self.kids(p))
    }

    /// [`Group::examine`] with the in-group children of `p` at hand.
    #[inline]
    fn examine_with(&self, side: usize, p: usize, kids: &[u32]) -> (u8, u32, f64, f64) {
        let n = self.n;
        let g = side * n + p;
        let kids_val = &self.val[(1 - side) * n..(2 - side) * n];
        let (lambda, [en, es]) = (self.lambda, self.exits[p]);
        let x = exit_value;
        let (md, cur) = (self.mode[g], self.next[g]);
        let (mut best, mut arg) = (if cur == NONE { f64::NEG_INFINITY } else { -lambda * kids_val[cur as usize] }, cur);
        // The best child (the first of equals), taken where it beats the
        // current choice by more than `TOL`: what a pass picks depends on
        // the children's values only, not on their order, and after it no
        // child is worth more than the choice plus `TOL` (which
        // `Group::may_switch` relies on).
        let (mut top, mut top_arg) = (best, cur);
        for &c in kids {
            let v = -lambda * kids_val[c as usize];
            if v > top || top_arg == NONE {
                top = v;
                top_arg = c;
            }
        }
        if cur == NONE || top > best + self.tol {
            (best, arg) = (top, top_arg);
        }
        let (mut m_new, n_new) = choose(md, cur, arg, best, kids_val, lambda, self.tol, en, es);
        let worth = |m: u8, nxt: u32| {
            let side = |bit: u8, e: u32| if m & bit != 0 { -lambda * kids_val[nxt as usize] } else { x(e) };
            let mut t = 0.0;
            if self.w_n > 0 {
                t += self.w_n as f64 * side(STAY_N, en);
            }
            if self.w_s > 0 {
                t += self.w_s as f64 * side(STAY_S, es);
            }
            t / 72.0
        };
        let now = worth(m_new, n_new);
        let gain = now - worth(md, cur);
        // What the best choice of each throw would give more than the new
        // one (up to `TOL` where the choice was kept on a near tie).
        let mut ideal = 0.0;
        if self.w_n > 0 {
            ideal += self.w_n as f64 * top.max(x(en));
        }
        if self.w_s > 0 {
            ideal += self.w_s as f64 * top.max(x(es));
        }
        let slack = ideal / 72.0 - now;
        // Staying is as good as any exit after either throw.
        if (self.w_n == 0 || best >= x(en) - TOL) && (self.w_s == 0 || best >= x(es) - TOL) {
            m_new |= CAN_STAY;
        }
        (m_new, n_new, gain, slack)
    }

    /// Switches `side` to hold every loop it can hold while behind: the
    /// greatest set of its nodes (value < 0, an equally good in-group move)
    /// and the other side's nodes (staying after both throws) in which each
    /// of its nodes has an equally good move into the set and each of the
    /// other's nodes stays in it. Returns whether anything was switched.
    pub fn hold(&mut self, side: usize) -> bool {
        let search = (side, self.lambda.to_bits(), self.play);
        if self.idle_hold == Some(search) {
            return false;
        }
        let t = std::time::Instant::now();
        let r = self.hold_loops(side);
        self.stats.seconds[3] += t.elapsed().as_secs_f64();
        self.idle_hold = (!r).then_some(search);
        r
    }

    fn hold_loops(&mut self, side: usize) -> bool {
        let n = self.n;
        let other = 1 - side;
        let both = STAY_N | STAY_S;
        // The other side's nodes that stay after both throws, by position.
        let stays = |p: usize| {
            let g = other * n + p;
            self.kind[p] == LIVE && self.mode[g] & both == both
        };
        let cand: Vec<u32> = (0..n as u32)
            .into_par_iter()
            .filter(|&p| {
                let g = side * n + p as usize;
                self.kind[p as usize] == LIVE
                    && self.in_play(side, p as usize)
                    && self.mode[g] & CAN_STAY != 0
                    && self.val[g] < -TOL
            })
            .collect();
        if cand.is_empty() {
            return false;
        }
        let slot = Members::new(n, &cand);
        // For each candidate, its equally good children that stay and lead
        // back to a candidate: (child, candidate slot it leads to); what is
        // read of the children fetched a few candidates ahead (their lists,
        // where they are generated, made ahead).
        let m = cand.len();
        let fetch = |c: usize| {
            let cg = other * n + c;
            prefetch(&self.kind[c]);
            prefetch(&self.val[cg]);
            prefetch(&self.mode[cg]);
            prefetch(&self.next[cg]);
        };
        let at = |k: usize| cand.get(k).map(|&p| p as usize);
        let (links, _) = Lists::build_with(
            m,
            KidsAhead::default,
            |walk, j, out| {
                let p = cand[j] as usize;
                let v = self.val[side * n + p];
                if self.moves.lists_children()
                    && let Some(q) = at(j + PREFETCH_AHEAD)
                {
                    self.kids.get(q).iter().for_each(|&c| fetch(c as usize));
                }
                for &c in walk.get(self, j, at, fetch).iter() {
                    let cg = other * n + c as usize;
                    if -self.val[cg] >= v - TOL
                        && stays(c as usize)
                        && let Some(t) = slot.slot(self.next[cg])
                    {
                        out.push((c, t));
                    }
                }
            },
            &Silent,
        );
        // Greatest fixpoint: drop candidates with no link into the set.
        let mut alive = vec![true; m];
        let mut count: Vec<u32> = (0..m).map(|j| links.get(j).len() as u32).collect();
        let back = links.reverse(m, |&(_, t)| t as usize);
        let mut stack: Vec<u32> = (0..m as u32).filter(|&j| count[j as usize] == 0).collect();
        for &j in &stack {
            alive[j as usize] = false;
        }
        while let Some(t) = stack.pop() {
            for &j in back.get(t as usize) {
                let j = j as usize;
                if alive[j] {
                    count[j] -= 1;
                    if count[j] == 0 {
                        alive[j] = false;
                        stack.push(j as u32);
                    }
                }
            }
        }
        let mut held = false;
        for j in 0..m {
            if !alive[j] {
                continue;
            }
            let g = side * n + cand[j] as usize;
            let (c, _) = *links.get(j).iter().find(|&&(_, t)| alive[t as usize]).expect("a link in the set");
            if self.next[g] != c || self.mode[g] & both != both {
                self.next[g] = c;
                self.mode[g] |= both;
                self.switched(g);
                held = true;
            }
        }
        if held {
            self.stats.holds += 1;
        }
        held
    }

    /// Ranks the positions where the side ahead keeps to equally good
    /// in-group moves by their distance to an exit (negamax values).
    fn rank_progress(&self) -> Ranked {
        // Ranks are read with the stored values, so ties are told as perfect
        // play and `verify` tell them: on the grid, within TIE.
        self.rank_progress_of(&|p| p)
    }

    /// The value of node `g` as a table stores it (on the grid): for a
    /// position `p < n`, the first player's.
    #[inline]
    fn stored_value(&self, g: usize) -> f64 {
        match self.values() {
            Ok(val) => from_code(to_code(val[g])),
            Err(codes) => from_code(codes[g]),
        }
    }

    /// Hints the cache to fetch what [`Group::stored_value`] reads of node
    /// `g`.
    #[inline]
    fn prefetch_stored(&self, g: usize) {
        match self.values() {
            Ok(val) => prefetch(&val[g]),
            Err(codes) => prefetch(&codes[g]),
        }
    }

    /// The nodes' values during the iteration, or, once it is over, the
    /// first player's codes that take their place.
    #[inline]
    fn values(&self) -> Result<&[f64], &[u32]> {
        if self.val.is_empty() { Err(&self.codes) } else { Ok(&self.val) }
    }

    /// [`Group::rank_progress`] of the positions' values held by the nodes
    /// `node(p)` (read on the grid of the stored values where they are
    /// needed, the children's fetched ahead where the lists are stored,
    /// rather than copied): besides the group's arrays the ranking holds 8
    /// bytes per candidate (its position and its rank), 4 for each in the
    /// two layers of the breadth-first search at hand (together at most
    /// every candidate once) and the set of the candidates; a ranked
    /// candidate's parents among them are found from the in-group parents.
    fn rank_progress_of(&self, node: &(impl Fn(usize) -> usize + Sync)) -> Ranked {
        let n = self.n;
        let x = exit_value;
        let (wn, ws) = (self.w_n, self.w_s);
        let val = |p: usize| self.stored_value(node(p));
        // The values of the children of position `p`, fetched ahead.
        let fetch = |p: usize| {
            if self.moves.lists_children() && p < n {
                for &c in self.kids.get(p) {
                    self.prefetch_stored(node(c as usize));
                }
            }
        };
        // Candidates: ahead with no exit as good as the best in-group move,
        // or behind with an in-group move as good as any exit.
        let fetch_kid = |c: usize| self.prefetch_stored(node(c));
        let ids: Vec<u32> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .flat_map_iter(|b| {
                let (lo, hi) = (b * CHUNK, ((b + 1) * CHUNK).min(n));
                let candidate = |k: usize| {
                    let i = lo + k;
                    (i < hi
                        && matches!(self.kind[i], LIVE | SURE)
                        && self.mode[i] & HAS_KIDS != 0
                        && val(i).abs() > TIE)
                        .then_some(i)
                };
                let mut walk = KidsAhead::default();
                let mut found = Vec::new();
                for i in lo..hi {
                    fetch(i + PREFETCH_AHEAD);
                    if candidate(i - lo).is_none() {
                        continue;
                    }
                    let v = val(i);
                    let m = walk
                        .get(self, i - lo, candidate, fetch_kid)
                        .iter()
                        .map(|&c| -val(c as usize))
                        .fold(f64::NEG_INFINITY, f64::max);
                    let [en, es] = self.exits[i].map(x);
                    let exit_ties = (wn > 0 && en >= m - TIE) || (ws > 0 && es >= m - TIE);
                    let can_stay = (wn == 0 || m >= en - TIE) && (ws == 0 || m >= es - TIE);
                    if if v > 0.0 { !exit_ties } else { can_stay } {
                        found.push(i as u32);
                    }
                }
                found
            })
            .collect();
        let slot = Members::new(n, &ids);
        let m = ids.len();
        // Each candidate's first rank: the side ahead progresses through an
        // equally good child that must exit now and then (rank 1), else it
        // waits for a ranked one among the candidates (`UNRANKED`); the side
        // behind when all its equally good children progress (rank 1 where
        // it has none among the candidates, else `WAITING` and their
        // count).
        let equally_good = |c: usize, v: f64| -val(c) >= v - TIE;
        let rank: Vec<u32> = ids
            .par_chunks(CHUNK)
            .enumerate()
            .flat_map_iter(|(b, chunk)| {
                let at = |k: usize| chunk.get(k).map(|&p| p as usize);
                let mut walk = KidsAhead::default();
                let mut ranks = Vec::with_capacity(chunk.len());
                for (j, &p) in chunk.iter().enumerate() {
                    if let Some(&q) = ids.get(b * CHUNK + j + PREFETCH_AHEAD) {
                        fetch(q as usize);
                    }
                    let p = p as usize;
                    let v = val(p);
                    let (mut count, mut outside) = (0u32, false);
                    for &c in walk.get(self, j, at, fetch_kid).iter() {
                        if equally_good(c as usize, v) {
                            match slot.slot(c) {
                                Some(_) => count += 1,
                                None => outside = true,
                            }
                        }
                    }
                    ranks.push(match (v > 0.0, outside, count) {
                        (true, true, _) | (false, _, 0) => 1,
                        (true, false, _) => UNRANKED,
                        (false, _, k) => WAITING | k,
                    });
                }
                ranks
            })
            .collect();
        // The ranks rise a layer at a time, from the candidates ranked to
        // their parents among the candidates of which they are equally good
        // children, found by both threads at once: the side ahead takes the
        // first layer that reaches it, the side behind the layer after its
        // last child's (the ranks of a breadth-first search).
        // (`Vec<u32>` to `Vec<AtomicU32>` and back in place: same layout.)
        // A layer is kept as the finds of the batches of the layer before,
        // so that beside the two layers only one batch's are gathered at a
        // time.
        const BATCH: usize = 1 << 16;
        let rank: Vec<AtomicU32> = rank.into_iter().map(AtomicU32::new).collect();
        let mut layer: Vec<Vec<u32>> = vec![(0..m as u32).filter(|&j| rank[j as usize].load(Relaxed) == 1).collect()];
        let mut next = 2;
        while !layer.is_empty() {
            let mut reached: Vec<Vec<u32>> = Vec::new();
            for batch in layer.iter().flat_map(|part| part.chunks(BATCH)) {
                let found: Vec<u32> = batch
                    .par_chunks(64)
                    .flat_map_iter(|cs| {
                        // The candidates' positions, as nodes of the first
                        // player: where their parents are generated, what is
                        // read of each is fetched a few candidates ahead.
                        let list: SmallVec<[u32; 64]> = cs.iter().map(|&c| ids[c as usize]).collect();
                        let fetch = |g: usize| {
                            slot.prefetch((g - n) as u32);
                            self.prefetch_stored(node(g - n));
                        };
                        let mut ahead = ParentsAhead::default();
                        let mut reached = Vec::new();
                        for (i, &child) in list.iter().enumerate() {
                            let child = child as usize;
                            for &q in ahead.get(self, &list, i, |_| true, fetch).iter() {
                                let Some(p) = slot.slot(q) else { continue };
                                if !equally_good(child, val(q as usize)) {
                                    continue;
                                }
                                // The side ahead ranked by the first child to
                                // reach it, the side behind by its last.
                                let was = rank[p as usize].fetch_update(Relaxed, Relaxed, |r| match r {
                                    UNRANKED => Some(next),
                                    r if r == WAITING | 1 => Some(next),
                                    r if r & WAITING != 0 => Some(r - 1),
                                    _ => None,
                                });
                                if was.is_ok_and(|r| r == UNRANKED || r == WAITING | 1) {
                                    reached.push(p);
                                }
                            }
                        }
                        reached
                    })
                    .collect();
                if !found.is_empty() {
                    reached.push(found);
                }
            }
            layer = reached;
            next += 1;
        }
        let mut rank: Vec<u32> = rank.into_iter().map(AtomicU32::into_inner).collect();
        // Candidates that cannot be ranked keep the largest rank: the side
        // ahead never prefers moving into them.
        let mut stuck = 0;
        for r in &mut rank {
            if *r == UNRANKED {
                stuck += 1;
            } else if *r & WAITING != 0 {
                *r = UNRANKED;
            }
        }
        #[cfg(test)]
        tests::check_ranks(self, node, &ids, &rank);
        let ranked = rank.iter().filter(|&&r| r != UNRANKED).count() as u64;
        let max_rank = rank.iter().filter(|&&r| r != UNRANKED).copied().max().unwrap_or(0);
        Ranked { ranks: Ranks { ids, rank }, slot, stuck, ranked, max_rank }
    }

    /// Keeps the progress ranks with the group and counts them.
    fn keep_ranks(&mut self, r: Ranked) {
        self.stats.stuck = r.stuck;
        self.stats.ranked = r.ranked;
        self.stats.max_rank = r.max_rank;
        self.rank = r.ranks;
    }

    /// A few sweeps of interval iteration from −1 and +1 (Jacobi, in
    /// parallel): the bounds close near the exits; their middle starts both
    /// sides' strategies.
    fn warm_start(&mut self, obs: &dyn Observer) {
        let t = std::time::Instant::now();
        self.warm_bounds(obs);
        self.stats.seconds[0] += t.elapsed().as_secs_f64();
    }

    fn warm_bounds(&mut self, obs: &dyn Observer) {
        let n = self.n;
        let x = exit_value;
        let (wn, ws) = (self.w_n as f64 / 72.0, self.w_s as f64 / 72.0);
        // Both bounds of a position side by side: one memory access per
        // child. They only guide the first strategies, so single precision
        // does; packed in one word, they take the values' array for their
        // room (one half a sweep's bounds, the other the next sweep's),
        // nothing beside the group's arrays. The positions that are not live
        // keep their values (0 or ±1, exact in single precision).
        let mut val = std::mem::take(&mut self.val);
        for (w, &k) in val[..n].iter_mut().zip(&self.kind) {
            let v = *w;
            debug_assert!(k == LIVE || v as f32 as f64 == v, "a fixed value in single precision");
            *w = if k == LIVE { pack(-1.0, 1.0) } else { pack(v as f32, v as f32) };
        }
        obs.begin("strategy iteration: first bounds (sweeps)", WARM_SWEEPS);
        let mut last = 0;
        for sweep in 0..WARM_SWEEPS {
            let this = &*self;
            let (first, second) = val.split_at_mut(n);
            let (old, new): (&[f64], &mut [f64]) = if sweep % 2 == 0 { (first, second) } else { (second, first) };
            let moved = new
                .par_chunks_mut(1 << 12)
                .enumerate()
                .map(|(k, out)| {
                    let mut moved = 0f64;
                    // Where the children are generated, those of the
                    // positions a few on are, and their bounds fetched.
                    let mut walk = KidsAhead::default();
                    let len = out.len();
                    let at = |j: usize| Some((k << 12) + j).filter(|&p| j < len && this.kind[p] == LIVE);
                    for (j, o) in out.iter_mut().enumerate() {
                        let p = (k << 12) + j;
                        if p + PREFETCH_AHEAD < this.n {
                            this.prefetch_kids(p + PREFETCH_AHEAD, old);
                        }
                        if this.kind[p] != LIVE {
                            *o = old[p];
                            continue;
                        }
                        let kids = walk.get(this, j, at, |c| prefetch(&old[c]));
                        let (lo, hi) = unpack(old[p]);
                        let (lo, hi) = (lo as f64, hi as f64);
                        let (mut ml, mut mh) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
                        for &c in kids.iter() {
                            let (cl, ch) = unpack(old[c as usize]);
                            ml = ml.max(-ch as f64);
                            mh = mh.max(-cl as f64);
                        }
                        let [en, es] = this.exits[p].map(x);
                        let f = |m: f64| {
                            let mut t = 0.0;
                            if wn > 0.0 {
                                t += wn * m.max(en);
                            }
                            if ws > 0.0 {
                                t += ws * m.max(es);
                            }
                            t
                        };
                        let (nl, nh) = (f(ml).max(lo), f(mh).min(hi));
                        moved = moved.max(nl - lo).max(hi - nh);
                        *o = pack(nl as f32, nh as f32);
                    }
                    moved
                })
                .reduce(|| 0.0, f64::max);
            last = 1 - sweep as usize % 2;
            obs.advance(1);
            self.stats.warm = sweep + 1;
            if moved < 1e-6 {
                break;
            }
        }
        obs.finish();
        // The middle of each live position's bounds for both of its nodes;
        // the others' values back.
        let (first, second) = val.split_at_mut(n);
        first.par_iter_mut().zip(second.par_iter_mut()).enumerate().with_min_len(CHUNK).for_each(|(p, (a, b))| {
            let (lo, hi) = unpack(if last == 0 { *a } else { *b });
            let v = if self.kind[p] == LIVE { 0.5 * (lo as f64 + hi as f64) } else { lo as f64 };
            (*a, *b) = (v, v);
        });
        self.val = val;
        self.whole = true;
        self.mark_all_dirty();
        // Each side's greedy choices against the middle values.
        self.improve(FIRST);
        self.improve(SECOND);
    }

    /// The warm start alone (for benchmarks).
    pub fn warm(&mut self, obs: &dyn Observer) {
        self.warm_start(obs);
    }

    /// The progress ranks of the current values alone (for benchmarks):
    /// how many positions were ranked.
    pub fn ranks(&mut self) -> u64 {
        let r = self.rank_progress();
        self.keep_ranks(r);
        self.stats.ranked
    }

    /// Hoffman–Karp at the current discount: the second player's best reply,
    /// then one improvement of the first player's strategy, until neither
    /// changes (the reply holding loops in the undiscounted game).
    fn iterate(&mut self, trace: bool, obs: &dyn Observer) {
        self.iterate_until(trace, obs, &mut |_| Boundary::Pass);
    }

    /// [`Group::iterate`], asking `boundary` at the top of each round of the
    /// reply (the first of an outer round included) whether to save the
    /// strategies or to stop there. After a save the
    /// round's evaluation and passes are whole: they find the same values
    /// and switches as partial ones would, so a solve resumed from the
    /// strategies alone goes the same way. Returns `false` where it
    /// stopped.
    fn iterate_until(&mut self, trace: bool, obs: &dyn Observer, boundary: &mut Boundaries<'_, 'a>) -> bool {
        let holds = self.lambda == 1.0;
        loop {
            loop {
                // The top of a round of the reply is the top of an outer
                // round too: a solve resumed from it evaluates and improves
                // the reply first, as the round would have.
                match boundary(self) {
                    Boundary::Pass => {}
                    Boundary::Saved => self.whole = true,
                    Boundary::Stop => return false,
                }
                self.evaluate();
                let s = self.improve(SECOND);
                obs.advance(1);
                if trace {
                    eprintln!(
                        "reply round {}: {s} switched, residual {:.2e}, slack {:.2e}, at {:.3} s",
                        self.stats.rounds,
                        self.stats.residual,
                        self.stats.slack,
                        self.stats.seconds[1] + self.stats.seconds[2]
                    );
                }
                if s > 0 || (holds && self.hold(SECOND)) {
                    continue;
                }
                break;
            }
            let s = self.improve(FIRST);
            obs.advance(1);
            if trace {
                eprintln!(
                    "first round {}: {s} switched, residual {:.2e}, slack {:.2e}, at {:.3} s",
                    self.stats.rounds,
                    self.stats.residual,
                    self.stats.slack,
                    self.stats.seconds[1] + self.stats.seconds[2]
                );
            }
            if s == 0 || self.stats.rounds >= self.round_cap {
                break;
            }
        }
        true
    }

    /// [`Group::iterate`] as the part `phase` of the iteration, asking
    /// `boundary` whether to save or stop
    /// ([`Group::iterate_until`]: `false` where it stopped); without a part,
    /// with no chance to save.
    fn iterate_part(
        &mut self,
        phase: Option<u8>,
        trace: bool,
        obs: &dyn Observer,
        boundary: &mut Boundaries<'_, 'a>,
    ) -> bool {
        match phase {
            Some(phase) => {
                self.phase = phase;
                self.iterate_until(trace, obs, boundary)
            }
            None => {
                self.iterate(trace, obs);
                true
            }
        }
    }

    /// A whole evaluation and whole passes of both sides close an
    /// iteration: the first round that switches nothing ends it.
    fn close(&mut self, trace: bool, obs: &dyn Observer) {
        loop {
            self.whole = true;
            let rounds = self.stats.rounds;
            let holds = self.stats.holds;
            self.iterate(trace, obs);
            if self.stats.rounds == rounds + 2 && self.stats.holds == holds {
                break;
            }
            self.stats.repairs += 1;
        }
    }

    /// The largest difference between the first player's and the second
    /// player's value of a position.
    fn gap(&self) -> f64 {
        let n = self.n;
        (0..n)
            .into_par_iter()
            .filter(|&p| self.kind[p] == LIVE)
            .map(|p| (self.val[p] - self.val[n + p]).abs())
            .reduce(|| 0.0, f64::max)
    }

    /// Frees what only the iteration reads: the lists and flags of the
    /// partial rounds (the in-group parents stay for the ranking).
    fn release_iteration(&mut self) {
        self.release_rounds();
        self.flag = Vec::new();
    }

    /// Frees the buffers of the partial rounds (a whole evaluation begins
    /// the next rounds, and their lists grow again as needed).
    fn release_rounds(&mut self) {
        self.picks = Vec::new();
        self.dirty = [Vec::new(), Vec::new()];
        self.switched = Vec::new();
        self.scratch = Scratch::default();
    }

    /// Iterates to optimal strategies: the values, progress ranks and proven
    /// error of the positions solved.
    fn solve(self, succ_error: f64, obs: &dyn Observer) -> Solved {
        self.solve_from(succ_error, obs, None, &mut |_| Boundary::Pass).expect("a solve that cannot stop")
    }

    /// [`Group::solve`], resumed where `resume` sets the strategies, effort
    /// and part saved in the iteration (it returns `false` if it cannot),
    /// and asking `boundary` at the top of each round of the reply in its
    /// parts (the discounted search, the game itself, the second copy, a
    /// later discount's search) whether to save or stop (see
    /// [`Group::iterate_until`]). `None`
    /// where it stopped or could not resume.
    fn solve_from(
        mut self,
        succ_error: f64,
        obs: &dyn Observer,
        resume: Option<&mut dyn FnMut(&mut Group<'a>) -> bool>,
        boundary: &mut Boundaries<'_, 'a>,
    ) -> Option<Solved> {
        let trace = std::env::var_os("LUDUS_TRACE").is_some();
        let discounts = self.discounts;
        if !self.unsettled {
            let t = std::time::Instant::now();
            self.stats.settled = self.settle();
            if trace {
                eprintln!(
                    "{} of {} positions settled in {:.2} s",
                    self.stats.settled,
                    self.n,
                    t.elapsed().as_secs_f64()
                );
            }
        }
        self.lambda = 1.0 - discounts[0];
        self.tol = tolerance(discounts[0]);
        // A resumed solve takes the saved strategies instead of the warm
        // start's: the round after them is whole, so the values of the nodes
        // in play follow from the strategies alone, and those of the nodes
        // not in play are read only once the second copy takes the first
        // one's.
        let (mut resumed, mut from) = (SEARCH, 0);
        match resume {
            None => self.warm_start(obs),
            Some(restore) => {
                if !restore(&mut self) {
                    return None;
                }
                resumed = self.phase;
                if resumed == LATER_SEARCH {
                    // The discount whose search was saved.
                    from = self.stats.discounts as usize - 1;
                }
                if trace {
                    eprintln!("resumed at round {}, part {resumed}, discount {}", self.stats.rounds, from + 1);
                }
            }
        }
        obs.begin("strategy iteration (rounds)", 0);
        if trace {
            eprintln!("warm start: {} sweeps", self.stats.warm);
        }
        // Resumed in a later discount's search: the discounts before it
        // ended with both copies in play.
        for (d, &discount) in discounts.iter().enumerate().skip(from) {
            self.stats.discounts = d as u64 + 1;
            // First in the discounted game, where every improvement is an
            // improvement and play that loops is worth nothing by itself; then
            // in the game itself, from those strategies. The first
            // discount's parts may be saved and stopped (most of the work is
            // in its search), and a resumed solve goes on in the part it was
            // saved in.
            let first = d == 0;
            let past = |phase: u8| first && resumed > phase;
            for (phase, lambda) in [(SEARCH, 1.0 - discount), (GAME, 1.0)] {
                if past(phase) {
                    continue;
                }
                self.lambda = lambda;
                self.tol = if phase == SEARCH { tolerance(discount) } else { TOL };
                self.round_cap = if phase == SEARCH && !first {
                    self.stats.rounds.saturating_add(self.later_rounds)
                } else {
                    u64::MAX
                };
                self.whole = true;
                // The parts that may be saved: the first discount's, and
                // the later discounts' searches (where most of their work
                // is).
                let part = match (d, phase) {
                    (0, phase) => Some(phase),
                    (_, SEARCH) => Some(LATER_SEARCH),
                    _ => None,
                };
                if !self.iterate_part(part, trace, obs, boundary) {
                    obs.finish();
                    return None;
                }
            }
            if !past(GAME) {
                self.close(trace, obs);
            }
            if self.play == Play::First || past(GAME) {
                // The second copy from the first one's values, in the game
                // itself: the gap between the sides below then says whether
                // the strategies are optimal (if not, both go on).
                self.lambda = 1.0;
                self.tol = TOL;
                self.round_cap = u64::MAX;
                if past(GAME) {
                    // Resumed inside it: the first copy's values again, from
                    // its strategies (the whole evaluation that closed it),
                    // then the second copy with the strategies saved.
                    self.play = Play::First;
                    self.evaluate_all();
                    self.play = Play::Second;
                } else {
                    if trace {
                        eprintln!("second copy from the first");
                    }
                    let stuck = self.seed_second_copy();
                    if trace {
                        eprintln!("positions ahead not ranked: {stuck}");
                    }
                }
                self.whole = true;
                if !self.iterate_part(first.then_some(SECOND_COPY), trace, obs, boundary) {
                    obs.finish();
                    return None;
                }
                self.close(trace, obs);
                self.play = Play::Both;
                self.class = Vec::new();
            }
            // The first player's values are what its strategy guarantees
            // against any reply, the second player's what a side gets at most
            // against that strategy: the game's value lies between them.
            self.stats.gap = self.gap();
            if trace {
                eprintln!("discount {discount:e}: gap between the sides {:.2e}", self.stats.gap);
            }
            if self.stats.gap <= GAP_OK {
                break;
            }
        }
        // The first player's codes are all that is read of the values from
        // here on (by the ranking and the tables): they take the values'
        // place. Then the bound on the rounding error, in the room of the
        // values and of what only the iteration needed; then the progress
        // ranks, in the room of the strategies and the marks as well (the
        // ranking reads the codes and the children alone).
        let n = self.n;
        self.codes = self.val[..n].par_iter().map(|&v| to_code(v)).collect();
        self.val = Vec::new();
        self.release_iteration();
        let t = std::time::Instant::now();
        let mut mark = std::mem::take(&mut self.mark);
        self.stats.arithmetic = self.arithmetic_bound(&mut mark);
        drop(mark);
        self.next = Vec::new();
        let ranked = self.rank_progress();
        self.keep_ranks(ranked);
        if trace {
            eprintln!("ranks and rounding bound {:.2} s", t.elapsed().as_secs_f64());
            eprintln!(
                "{n} positions, {} in-group children: rounds {}, holds {}, gap between the sides {:.2e}; seconds warm {:.2} evaluate {:.2} \
                 improve {:.2} hold {:.2}; nodes evaluated {} ({:.1} per position, the parents of {} kept), positions listed \
                 for passes {} ({:.1} per position); ranked {} (largest {}), stuck {}",
                self.kids.items.len(),
                self.stats.rounds,
                self.stats.holds,
                self.stats.gap,
                self.stats.seconds[0],
                self.stats.seconds[1],
                self.stats.seconds[2],
                self.stats.seconds[3],
                self.stats.evaluated,
                self.stats.evaluated as f64 / n as f64,
                self.stats.kept,
                self.stats.examined,
                self.stats.examined as f64 / n as f64,
                self.stats.ranked,
                self.stats.max_rank,
                self.stats.stuck
            );
        }
        obs.finish();
        let error = succ_error + self.stats.arithmetic + GRID_HALF_STEP + self.stats.gap;
        let Group { members, kind, codes, rank, stats, .. } = self;
        Some(Solved { members, kind, codes, rank, stats, error })
    }

    /// Iterates to optimal strategies and returns the group's tables with
    /// their progress ranks (the whole group at once: see [`solve`] for the
    /// solve a mill level at a time).
    pub fn run(self, succ_error: f64, obs: &dyn Observer) -> (Vec<Table>, Stats) {
        let ix = self.ix.clone();
        let solved = self.solve(succ_error, obs);
        let mut out = Outputs::new(&ix);
        out.keep(&solved, 0);
        let stats = solved.stats;
        (out.tables(ix, &stats, solved.error), stats)
    }
}

/// What solving (a part of) a group gives, by position: the first
/// player's values as the tables store them, the kinds, the progress ranks;
/// the effort and the proven error.
struct Solved {
    members: Option<Members>,
    kind: Vec<u8>,
    codes: Vec<u32>,
    rank: Ranks,
    stats: Stats,
    error: f64,
}

/// A group's codes and progress ranks as its parts are solved: those of the
/// positions solved so far, in the order of their indices in the group (a
/// bit per index says which), so that the solve of a part holds 6 bytes per
/// position of the parts before it rather than per index of the group.
struct Outputs {
    base: Vec<u64>,
    done: Members,
    codes: Vec<u32>,
    ranks: Vec<u16>,
}

impl Outputs {
    fn new(ix: &[Indexer]) -> Outputs {
        let base = bases(ix);
        let all = *base.last().expect("base") as usize;
        Outputs { base, done: Members::new(all, &[]), codes: Vec::new(), ranks: Vec::new() }
    }

    /// The code of the group's index `at`, [`CODE_UNUSED`] if no part
    /// solved so far holds it.
    #[inline]
    fn code(&self, at: u64) -> u32 {
        self.done.slot(at as u32).map_or(CODE_UNUSED, |k| self.codes[k as usize])
    }

    /// Keeps a part's values and its ranks raised by `offset` (the
    /// positions of no use left out: their codes are [`CODE_UNUSED`]).
    fn keep(&mut self, part: &Solved, offset: u32) {
        // The positions' indices in the group, in order.
        let mut ats: Box<dyn Iterator<Item = u32>> = match &part.members {
            None => Box::new(0..part.kind.len() as u32),
            Some(m) => Box::new(m.members()),
        };
        let mut ranked = part.rank.ids.iter().zip(&part.rank.rank).peekable();
        let mut old = self.done.members().zip(self.codes.iter().zip(&self.ranks)).peekable();
        let room = self.codes.len() + part.kind.len();
        let (mut codes, mut ranks) = (Vec::with_capacity(room), Vec::with_capacity(room));
        let mut bits = self.done.bits.clone();
        for (p, (&k, &c)) in part.kind.iter().zip(&part.codes).enumerate() {
            let rank = match ranked.peek() {
                Some(&(&q, &r)) if q as usize == p => {
                    ranked.next();
                    r.saturating_add(offset).min(u16::MAX as u32) as u16
                }
                _ => 0,
            };
            let a = ats.next().expect("an index per position");
            if k == UNUSED {
                continue;
            }
            // The positions kept before, up to this one, in order.
            while let Some((_, (&c, &r))) = old.next_if(|&(o, _)| o < a) {
                codes.push(c);
                ranks.push(r);
            }
            bits[a as usize / 64] |= 1 << (a % 64);
            codes.push(c);
            ranks.push(rank);
        }
        for (_, (&c, &r)) in old {
            codes.push(c);
            ranks.push(r);
        }
        self.done = Members::from_bits(bits);
        (self.codes, self.ranks) = (codes, ranks);
    }

    fn tables(self, ix: Vec<Indexer>, stats: &Stats, error: f64) -> Vec<Table> {
        let meta = Meta { sweeps: stats.rounds, residual: stats.residual, error, ..Meta::default() };
        let mut codes: Vec<Vec<u32>> = ix.iter().map(|x| vec![CODE_UNUSED; x.size() as usize]).collect();
        let mut ranks: Vec<Vec<u16>> = ix.iter().map(|x| vec![0; x.size() as usize]).collect();
        for (at, (&c, &r)) in self.done.members().zip(self.codes.iter().zip(&self.ranks)) {
            let (slot, i) = place(&self.base, at as usize);
            codes[slot][i as usize] = c;
            ranks[slot][i as usize] = r;
        }
        drop(self);
        ix.into_iter()
            .zip(codes.into_iter().zip(ranks))
            .map(|(x, (codes, ranks))| Table::with_rank(x, Values::Chance(codes), meta, ranks))
            .collect()
    }
}

/// The first index of each sector of a group, one after the other, and
/// their end.
fn bases(ix: &[Indexer]) -> Vec<u64> {
    let mut base = vec![0u64];
    for x in ix {
        base.push(base.last().expect("base") + x.size());
    }
    base
}

/// The sector (its place in the group) and the index there of the group's
/// index `at`, given the sectors' first indices `base`.
#[inline]
fn place(base: &[u64], at: usize) -> (usize, u64) {
    let slot = base.partition_point(|&b| b <= at as u64) - 1;
    (slot, at as u64 - base[slot])
}

/// The state at the group's index `at`, if it is a position.
#[inline]
fn state_at(rules: &Rules, ix: &[Indexer], base: &[u64], at: usize, cursor: &mut GroupCursor) -> Option<State> {
    let (slot, i) = place(base, at);
    if slot != cursor.slot {
        *cursor = GroupCursor { slot, cursor: Cursor::default() };
    }
    let st = ix[slot].canonical_state_at_cursor(&mut cursor.cursor, i)?;
    rules.valid(&st).then_some(st)
}

/// A [`Cursor`] through a group's indices (its sectors' one after the
/// other), for reading them in ascending order.
#[derive(Clone, Copy, Debug, Default)]
struct GroupCursor {
    slot: usize,
    cursor: Cursor,
}

/// The mill level of a position: the lines its two sides fill. A step that
/// stays in a movement group closes no mill, so it keeps the level or (when
/// the man left a mill) lowers it: play inside a group never climbs.
#[inline]
pub fn mill_level(rules: &Rules, st: &State) -> u8 {
    let lines = rules.board.lines();
    lines.iter().filter(|&&l| l.is_subset(st.own) || l.is_subset(st.other)).count() as u8
}

/// No level: an index that is no position.
const NO_LEVEL: u8 = u8::MAX;

/// The share of a group's indices that each mill level holds (by level,
/// lowest first; the largest is the part [`solve`] takes at once): counted
/// on a group of at most `SAMPLE` indices, else estimated from `SAMPLE`
/// indices spread evenly over it, each plus three standard errors.
pub fn level_shares(rules: &Rules, ix: &[Indexer]) -> Vec<f64> {
    const SAMPLE: u64 = 1 << 14;
    let base = bases(ix);
    let all = *base.last().expect("base");
    if all == 0 {
        return Vec::new();
    }
    let step = (all / SAMPLE).max(1);
    let mut count = vec![0u64; 1 + u8::MAX as usize];
    let mut taken = 0u64;
    for k in 0..all / step {
        // A fixed scatter inside each stride, the same on every run.
        let at = k * step + (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 20) % step;
        taken += 1;
        if let Some(st) = state_at(rules, ix, &base, at as usize, &mut GroupCursor::default()) {
            count[mill_level(rules, &st) as usize] += 1;
        }
    }
    let top = count.iter().rposition(|&c| c > 0).map_or(0, |l| l + 1);
    count[..top]
        .iter()
        .map(|&c| {
            let p = c as f64 / taken as f64;
            if step == 1 || c == 0 { p } else { (p + 3.0 * (p * (1.0 - p) / taken as f64).sqrt()).min(1.0) }
        })
        .collect()
}

/// Where the solve of a group finds the tables of the sectors its moves
/// lead out to: only a level's exits read them, so they may be let go while
/// the level is iterated and read again for the next level's exits.
pub trait Successors {
    type Error;
    /// The tables, in memory (read again if they were let go).
    fn known(&mut self) -> Result<&Known, Self::Error>;
    /// Lets the tables go until [`Successors::known`] is called again
    /// (nothing: they stay).
    fn let_go(&mut self) {}
}

/// Tables that stay in memory.
impl Successors for &Known {
    type Error = std::convert::Infallible;
    fn known(&mut self) -> Result<&Known, Self::Error> {
        Ok(self)
    }
}

/// Solves one movement group under chance a mill level at a time, lowest
/// first: play never climbs from one level to a higher one, so each level is
/// a game of its own whose exits lead out of the group or into the levels
/// below, already solved. Only one level's working arrays are in memory at
/// once, and the successors' tables only while its exits are built where
/// `succ` lets them go; the progress ranks of each level are raised above
/// the lower levels', so that they fall along play through the whole group. Returns the group's tables
/// (as [`Group::run`], to within the rounding of the exact evaluations) and
/// the effort of all levels, or the error of reading the successors again.
pub fn solve<S: Successors>(
    rules: &Rules,
    succ: &mut S,
    ix: Vec<Indexer>,
    succ_error: f64,
    moves: Moves,
    obs: &dyn Observer,
) -> Result<(Vec<Table>, Stats), S::Error> {
    Ok(solve_resuming(rules, succ, ix, succ_error, Room::new(moves, 0), obs, None)?
        .expect("a solve without a checkpoint does not stop"))
}

/// Where a solve under chance was saved: the mill level it was at (those
/// below finished), the offset of that level's ranks, the error so far, the
/// effort of the finished levels and of the level's search, and the
/// finished levels' codes and ranks.
struct Saved {
    level: u8,
    /// The part of the level's iteration (`SEARCH`, `GAME`, `SECOND_COPY`,
    /// `LATER_SEARCH`; the level's effort says which discount).
    phase: u8,
    offset: u32,
    error: f64,
    stats: Stats,
    level_stats: Stats,
    out: Outputs,
}

/// Words of an effort in a checkpoint.
const STATS_WORDS: usize = 21;
/// The word of an effort that holds its discounts.
const DISCOUNTS_WORD: usize = 11;

impl Stats {
    /// The effort's fields in a fixed order, as a checkpoint keeps them.
    fn fields(&self) -> [u64; STATS_WORDS] {
        let f = |x: f64| x.to_bits();
        let s = &self.seconds;
        [
            self.rounds,
            self.one_copy_rounds,
            self.holds,
            self.ranked,
            u64::from(self.max_rank),
            self.warm,
            self.stuck,
            f(self.residual),
            f(self.slack),
            self.repairs,
            f(self.arithmetic),
            self.discounts,
            f(self.gap),
            f(s[0]),
            f(s[1]),
            f(s[2]),
            f(s[3]),
            self.evaluated,
            self.examined,
            self.rechecked,
            self.settled,
        ]
    }

    fn from_fields(x: &[u64; STATS_WORDS]) -> Option<Stats> {
        let f = f64::from_bits;
        Some(Stats {
            rounds: x[0],
            one_copy_rounds: x[1],
            holds: x[2],
            ranked: x[3],
            max_rank: u32::try_from(x[4]).ok()?,
            warm: x[5],
            stuck: x[6],
            residual: f(x[7]),
            slack: f(x[8]),
            repairs: x[9],
            arithmetic: f(x[10]),
            discounts: x[DISCOUNTS_WORD],
            gap: f(x[12]),
            seconds: [f(x[13]), f(x[14]), f(x[15]), f(x[16])],
            evaluated: x[17],
            examined: x[18],
            rechecked: x[19],
            settled: x[20],
            kept: 0,
        })
    }
}

/// A checkpoint's state of a solve under chance (little endian): level
/// (1 byte), offset (4), error (8), the two efforts (`STATS_WORDS` words
/// each), then the finished positions' bits, codes and ranks, each array
/// after its length (8 bytes); the arrays written where they are.
fn saved_parts<'o>(head: &'o [u8], lens: &'o mut [u64; 3], out: &'o Outputs) -> [Part<'o>; 7] {
    *lens = [out.done.bits.len() as u64, out.codes.len() as u64, out.ranks.len() as u64];
    [
        Part::Bytes(head),
        Part::U64(&lens[..1]),
        Part::U64(&out.done.bits),
        Part::U64(&lens[1..2]),
        Part::U32(&out.codes),
        Part::U64(&lens[2..]),
        Part::U16(&out.ranks),
    ]
}

/// The fixed fields of [`saved_parts`] (the level's byte holds the level
/// in its low 6 bits and the part of its iteration in the top 2).
fn saved_head(level: u8, phase: u8, offset: u32, error: f64, stats: &Stats, level_stats: &Stats) -> Vec<u8> {
    debug_assert!(level < 64 && phase < 4);
    let mut b = Vec::with_capacity(13 + 16 * STATS_WORDS);
    b.push(level | phase << 6);
    b.extend_from_slice(&offset.to_le_bytes());
    b.extend_from_slice(&error.to_bits().to_le_bytes());
    for st in [stats, level_stats] {
        b.extend(st.fields().iter().flat_map(|x| x.to_le_bytes()));
    }
    b
}

/// The bytes of a saved state that [`saved_place`] reads.
pub const SAVED_PLACE_BYTES: usize = 13 + 16 * STATS_WORDS;

/// Where a saved state (its first [`SAVED_PLACE_BYTES`] bytes) stands: the
/// mill level, and inside it (`inside`: the checkpoint holds the nodes'
/// strategies) the part of the iteration and the round, counted in the
/// level.
pub fn saved_place(head: &[u8], inside: bool) -> Option<(u8, Option<(&'static str, u64)>)> {
    let h = decode_head(&mut head.get(..SAVED_PLACE_BYTES)?)?;
    let level_effort = &h.efforts[1];
    Some((h.level, inside.then(|| (part_name(h.phase, level_effort[DISCOUNTS_WORD]), level_effort[0]))))
}

/// The fixed fields of a saved state ([`saved_head`]).
struct Head {
    level: u8,
    phase: u8,
    offset: u32,
    error: f64,
    /// The group's effort and the level's, as [`Stats::fields`].
    efforts: [[u64; STATS_WORDS]; 2],
}

/// The next `k` bytes of `b`, taken.
fn take<'x>(b: &mut &'x [u8], k: usize) -> Option<&'x [u8]> {
    let (head, rest) = b.split_at_checked(k)?;
    *b = rest;
    Some(head)
}

/// The next word of `b` (little endian), taken.
fn word(b: &mut &[u8]) -> Option<u64> {
    Some(u64::from_le_bytes(take(b, 8)?.try_into().ok()?))
}

/// The fixed fields of a saved state, taken from the front of `b`.
fn decode_head(b: &mut &[u8]) -> Option<Head> {
    let byte = take(b, 1)?[0];
    let offset = u32::from_le_bytes(take(b, 4)?.try_into().ok()?);
    let error = f64::from_bits(word(b)?);
    let mut efforts = [[0u64; STATS_WORDS]; 2];
    for e in &mut efforts {
        for x in e.iter_mut() {
            *x = word(b)?;
        }
    }
    Some(Head { level: byte & 63, phase: byte >> 6, offset, error, efforts })
}

/// The state [`saved_parts`] wrote, if it is one for the group of `ix`.
fn decode_saved(mut b: &[u8], ix: &[Indexer]) -> Option<Saved> {
    fn array<T>(b: &mut &[u8], size: usize, from: impl Fn(&[u8]) -> T) -> Option<Vec<T>> {
        let len = usize::try_from(word(b)?).ok()?;
        Some(take(b, len.checked_mul(size)?)?.chunks_exact(size).map(from).collect())
    }
    let Head { level, phase, offset, error, efforts } = decode_head(&mut b)?;
    let bits = array(&mut b, 8, |c| u64::from_le_bytes(c.try_into().expect("8 bytes")))?;
    let codes = array(&mut b, 4, |c| u32::from_le_bytes(c.try_into().expect("4 bytes")))?;
    let ranks = array(&mut b, 2, |c| u16::from_le_bytes(c.try_into().expect("2 bytes")))?;
    let mut out = Outputs::new(ix);
    let all = *out.base.last().expect("base") as usize;
    let members = bits.iter().map(|w| w.count_ones() as usize).sum::<usize>();
    // No bit past the group's last index.
    let stray = !all.is_multiple_of(64) && bits.last().is_some_and(|&w| w >> (all % 64) != 0);
    if !b.is_empty()
        || phase > LATER_SEARCH
        || stray
        || bits.len() != all.div_ceil(64)
        || codes.len() != members
        || ranks.len() != members
    {
        return None;
    }
    (out.done, out.codes, out.ranks) = (Members::from_bits(bits), codes, ranks);
    let (stats, level_stats) = (Stats::from_fields(&efforts[0])?, Stats::from_fields(&efforts[1])?);
    Some(Saved { level, phase, offset, error, stats, level_stats, out })
}

/// [`solve`] with a checkpoint: the solve is saved every so often (between
/// mill levels, and at the top of the reply's rounds in a level's iteration:
/// its parts under the first discount and the later discounts' searches,
/// where most of the work is) and resumed from what was
/// saved, to the same bytes. `None` where the checkpoint asked it to stop
/// (at its `stop_at`-th chance to save, counted from 1: for the tests).
pub fn solve_resuming<'r, S: Successors>(
    rules: &'r Rules,
    succ: &mut S,
    ix: Vec<Indexer>,
    succ_error: f64,
    room: Room,
    obs: &dyn Observer,
    checkpoint: Option<&Checkpoint>,
) -> Result<Option<(Vec<Table>, Stats)>, S::Error> {
    let Room { moves, spare, discounts, later_rounds } = room;
    let drop_it = |c: &Checkpoint, problem: &str| {
        obs.note(&format!("{}: {problem}; solving the group from the start", c.path.display()));
        c.remove();
    };
    let mut saved = None;
    if let Some(c) = checkpoint {
        match c.load_chance(&ix) {
            Ok(None) => {}
            // (The state's bytes are let go once decoded.)
            Ok(Some(mut file)) => match decode_saved(&std::mem::take(&mut file.state), &ix) {
                Some(s) => saved = Some((s, file)),
                None => drop_it(c, "the checkpoint's state does not fit the group"),
            },
            Err(problem) => drop_it(c, &problem.to_string()),
        }
    }
    let base = bases(&ix);
    let all = *base.last().expect("base") as usize;
    assert!(all < NONE as usize, "a group of {all} positions is too big for 32-bit ids");
    // The mill levels that hold positions, in one pass over the indices;
    // then each level's set in a pass of its own over the indices not yet
    // finished, rather than from a byte per index kept through the solve.
    let level_at = |cur: &mut GroupCursor, at: usize| {
        state_at(rules, &ix, &base, at, cur).map_or(NO_LEVEL, |st| mill_level(rules, &st))
    };
    obs.begin("strategy iteration: mill levels", all as u64);
    let t = std::time::Instant::now();
    let present = (0..all)
        .into_par_iter()
        .map_init(GroupCursor::default, |cur, at| match level_at(cur, at) {
            NO_LEVEL => 0,
            l => 1u64 << l,
        })
        .reduce(|| 0, |a, b| a | b);
    obs.finish();
    if std::env::var_os("LUDUS_TRACE").is_some() {
        eprintln!("mill levels of {all} positions {:.2} s", t.elapsed().as_secs_f64());
    }
    let mut out = Outputs::new(&ix);
    let mut stats = Stats::default();
    let (mut error, mut offset) = (succ_error, 0u32);
    // The level resumed at, and inside it (where its nodes were saved) the
    // search's effort and the file to read the strategies from.
    let mut from = 0u8;
    let mut inside = None;
    if let Some((s, _)) = &saved
        && present >> s.level.min(63) & 1 == 0
    {
        drop_it(checkpoint.expect("read"), "the checkpoint's mill level is not one of the group's");
        saved = None;
    }
    if let Some((s, file)) = saved {
        obs.note(&format!(
            "resuming the group at mill level {}{} from {}",
            s.level,
            if file.nodes > 0 {
                let part = part_name(s.phase, s.level_stats.discounts);
                format!(", {part}, round {}", s.level_stats.rounds)
            } else {
                String::new()
            },
            checkpoint.expect("read").path.display()
        ));
        (from, offset, error, stats, out) = (s.level, s.offset, s.error, s.stats, s.out);
        if file.nodes > 0 {
            inside = Some((s.level_stats, s.phase, file));
        }
    }
    // Chances to save (counted for `stop_at`), when the last save ended and
    // how long it took: the next waits at least 20 times that.
    let mut chances = 0u64;
    let mut since = std::time::Instant::now();
    let mut took = std::time::Duration::ZERO;
    let mut chance_to_save =
        |level: u8, offset: u32, error: f64, stats: &Stats, group: Option<&Group<'r>>, out: &Outputs| -> Boundary {
            let Some(c) = checkpoint else { return Boundary::Pass };
            chances += 1;
            let stop = c.stop_at == Some(chances) || c.interrupted();
            if !stop && since.elapsed() < c.every.max(20 * took) {
                return Boundary::Pass;
            }
            let t = std::time::Instant::now();
            let level_stats = group.map_or(Stats::default(), |g| g.stats);
            let phase = group.map_or(SEARCH, |g| g.phase);
            let head = saved_head(level, phase, offset, error, stats, &level_stats);
            let mut lens = [0; 3];
            let state = saved_parts(&head, &mut lens, out);
            if let Err(e) = c.save_chance(&ix, &state, group.map(|g| (&g.next[..], &g.mode[..]))) {
                obs.note(&format!("cannot save the progress: {e}"));
            }
            took = t.elapsed();
            since = std::time::Instant::now();
            if stop { Boundary::Stop } else { Boundary::Saved }
        };
    for l in (0..64u8).filter(|&l| present >> l & 1 == 1 && l >= from) {
        let resume = if l == from { inside.take() } else { None };
        if resume.is_none() && chance_to_save(l, offset, error, &stats, None, &out) == Boundary::Stop {
            return Ok(None);
        }
        // The level's positions: a bit per index of the group (no index
        // per position).
        // (The positions of the levels below are finished: not read again.)
        let finished = &out.done.bits;
        let bits: Vec<u64> = (0..all.div_ceil(64))
            .into_par_iter()
            .map_init(GroupCursor::default, |cur, w| {
                (w * 64..(w * 64 + 64).min(all))
                    .filter(|&at| finished[w] >> (at % 64) & 1 == 0)
                    .fold(0u64, |word, at| word | u64::from(level_at(cur, at) == l) << (at % 64))
            })
            .collect();
        let members = Members::from_bits(bits);
        if members.len() == 0 {
            continue;
        }
        let t = std::time::Instant::now();
        let mut group = Group::part(rules, succ.known()?, ix.clone(), Some(members), Some(&out), moves, obs);
        group.spare_memory(spare);
        group.discounts(discounts);
        group.later_rounds = later_rounds;
        succ.let_go();
        group.make_nodes();
        let mut unreadable = false;
        let mut restore = resume.map(|(level_stats, phase, file)| {
            let unreadable = &mut unreadable;
            move |g: &mut Group<'r>| {
                let c = checkpoint.expect("read");
                // The second copy is a part only where the group's game has
                // two copies played one after the other, a later discount
                // only where the game is discounted and has it.
                let fits = match phase {
                    SECOND_COPY => g.play == Play::First,
                    LATER_SEARCH => g.discounted() && (2..=g.discounts.len() as u64).contains(&level_stats.discounts),
                    _ => true,
                };
                match c.read_nodes(&file, &mut g.next, &mut g.mode) {
                    Ok(()) if fits => {
                        g.stats = level_stats;
                        g.phase = phase;
                        if phase == LATER_SEARCH {
                            // As the discounts before left them.
                            g.play = Play::Both;
                            g.class = Vec::new();
                        }
                        true
                    }
                    Ok(()) => {
                        drop_it(c, "the checkpoint's part of the iteration does not fit the group");
                        *unreadable = true;
                        false
                    }
                    Err(problem) => {
                        drop_it(c, &problem.to_string());
                        *unreadable = true;
                        false
                    }
                }
            }
        });
        let resume = restore.as_mut().map(|r| r as &mut dyn FnMut(&mut Group<'r>) -> bool);
        let part =
            group.solve_from(error, obs, resume, &mut |g| chance_to_save(l, offset, error, &stats, Some(g), &out));
        drop(restore);
        let Some(part) = part else {
            if unreadable {
                // The strategies could not be read whole (the checkpoint
                // is removed): the group again, from the start, without
                // what is held here, and without the checkpoint if it
                // could not be removed.
                drop(out);
                let again = checkpoint.filter(|c| !c.path.exists());
                return solve_resuming(rules, succ, ix, succ_error, room, obs, again);
            }
            return Ok(None);
        };
        let solved = t.elapsed().as_secs_f64();
        let own = part.stats.gap + part.stats.arithmetic;
        if own > WIDE_LEVEL {
            obs.note(&format!(
                "mill level {l}: proven error {:.2e}, of which the gap left between the sides' strategies {:.2e} \
                 (after {} discounted searches) and the bound on the rounding {:.2e}",
                part.error, part.stats.gap, part.stats.discounts, part.stats.arithmetic
            ));
        }
        out.keep(&part, offset);
        if std::env::var_os("LUDUS_TRACE").is_some() {
            eprintln!("level {l}: built and solved {solved:.2} s, kept {:.2} s", t.elapsed().as_secs_f64() - solved);
        }
        if part.stats.ranked > 0 {
            offset = offset.saturating_add(part.stats.max_rank);
        }
        error = error.max(part.error);
        stats.absorb(&part.stats);
    }
    stats.max_rank = offset;
    Ok(Some((out.tables(ix, &stats, error), stats)))
}

/// Progress ranks: the positions ranked (by id, ascending) and each one's
/// rank, `UNRANKED` where none is known.
#[derive(Default)]
struct Ranks {
    ids: Vec<u32>,
    rank: Vec<u32>,
}

/// No rank: a candidate that no way to an exit was found for.
const UNRANKED: u32 = u32::MAX;
/// While ranking, the mark of a candidate behind that waits for its
/// children among the candidates (their count in the low bits).
const WAITING: u32 = 1 << 31;

/// A group's progress ranks (`Group::rank`), the places of the candidates,
/// and the counts (as in `Stats`).
struct Ranked {
    ranks: Ranks,
    slot: Members,
    stuck: u64,
    ranked: u64,
    max_rank: u32,
}

/// A set of positions with each member's place in ascending order: a bit
/// per position and the count of members before each word (about 0.19
/// bytes per position), and the word of every 256th member (0.016 bytes
/// per member).
struct Members {
    bits: Vec<u64>,
    before: Vec<u32>,
    /// The word holding every `1 << SELECT_SHIFT`-th member.
    every: Vec<u32>,
}

/// One member in `1 << SELECT_SHIFT` has its word noted, for
/// [`Members::select`].
const SELECT_SHIFT: u32 = 8;

impl Members {
    /// The set of `members` (ascending) among positions `0..n`.
    fn new(n: usize, members: &[u32]) -> Members {
        debug_assert!(members.is_sorted(), "members in position order");
        let mut bits = vec![0u64; n.div_ceil(64)];
        for &p in members {
            bits[p as usize / 64] |= 1 << (p % 64);
        }
        Members::from_bits(bits)
    }

    /// The set of the positions whose bits are set.
    fn from_bits(bits: Vec<u64>) -> Members {
        let mut before = Vec::with_capacity(bits.len());
        let mut every = Vec::new();
        let mut count = 0u32;
        for (w, word) in bits.iter().enumerate() {
            before.push(count);
            count += word.count_ones();
            while (every.len() as u64) << SELECT_SHIFT < u64::from(count) {
                every.push(w as u32);
            }
        }
        Members { bits, before, every }
    }

    /// How many members.
    fn len(&self) -> usize {
        self.before.last().map_or(0, |&b| b as usize + self.bits.last().map_or(0, |w| w.count_ones() as usize))
    }

    /// The `k`-th member (from 0), `k` below [`Members::len`]: its word
    /// found among those between two noted ones, then its bit.
    #[inline]
    fn select(&self, k: u32) -> u32 {
        let j = (k >> SELECT_SHIFT) as usize;
        let lo = self.every[j] as usize;
        let hi = self.every.get(j + 1).map_or(self.before.len(), |&w| w as usize + 1);
        let w = lo + self.before[lo..hi].partition_point(|&b| b <= k) - 1;
        (w * 64) as u32 + select_bit(self.bits[w], k - self.before[w])
    }

    /// The members, ascending.
    fn members(&self) -> impl Iterator<Item = u32> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let b = rest.trailing_zeros();
                    rest &= rest - 1;
                    (w * 64) as u32 + b
                })
            })
        })
    }

    /// Hints the cache to fetch what [`Members::slot`] reads of `p`.
    #[inline]
    fn prefetch(&self, p: u32) {
        let w = p as usize / 64;
        if w < self.bits.len() {
            prefetch(&self.bits[w]);
            prefetch(&self.before[w]);
        }
    }

    /// The place of position `p` among the members, if it is one.
    #[inline]
    fn slot(&self, p: u32) -> Option<u32> {
        let (w, b) = (p as usize / 64, p % 64);
        let word = *self.bits.get(w)?;
        (word >> b & 1 == 1).then(|| self.before[w] + (word & ((1u64 << b) - 1)).count_ones())
    }
}

/// Two single-precision numbers in one 64-bit word (the bits kept as they
/// are: the word is only stored and loaded).
#[inline]
fn pack(lo: f32, hi: f32) -> f64 {
    f64::from_bits(u64::from(lo.to_bits()) << 32 | u64::from(hi.to_bits()))
}

/// The two numbers of [`pack`].
#[inline]
fn unpack(w: f64) -> (f32, f32) {
    let b = w.to_bits();
    (f32::from_bits((b >> 32) as u32), f32::from_bits(b as u32))
}

/// The value of an exit code, `−∞` for no exit.
#[inline]
fn exit_value(code: u32) -> f64 {
    if code == NONE { f64::NEG_INFINITY } else { from_code(code) }
}

/// The strategy of one node after an improvement pass: each throw's choice
/// switches only to a strictly better one (an exit on a tie).
#[inline]
#[allow(clippy::too_many_arguments)]
fn choose(
    mode: u8,
    cur: u32,
    arg: u32,
    best: f64,
    kids_val: &[f64],
    lambda: f64,
    tol: f64,
    en: u32,
    es: u32,
) -> (u8, u32) {
    let x = exit_value;
    let cur_in = if cur == NONE { f64::NEG_INFINITY } else { -lambda * kids_val[cur as usize] };
    let mut m = mode & HAS_KIDS;
    for (bit, e) in [(STAY_N, en), (STAY_S, es)] {
        let stays = mode & bit != 0;
        let now = if stays { cur_in } else { x(e) };
        // The better of the best in-group move and the exit, if strictly
        // better than the current choice.
        let stay = if best > now + tol && best > x(e) + tol {
            true
        } else if x(e) > now + tol {
            false
        } else {
            stays
        };
        if stay {
            m |= bit;
        }
    }
    let next = if m & (STAY_N | STAY_S) != 0 { arg } else { NONE };
    (m, next)
}

/// What an evaluation needs besides the nodes' own arrays, kept from one to
/// the next: the nodes it recomputes (by levels), their old values, the path
/// it follows.
#[derive(Default)]
struct Scratch {
    nodes: Vec<u32>,
    old: Vec<f64>,
    path: Vec<(u32, f64, f64)>,
    /// Where each level of the backward search ends in `nodes` (the first
    /// level: the switched nodes).
    ends: Vec<usize>,
    /// One buffer per chunk of a large level or evaluation, for what the
    /// chunk finds (the backward search: parents; the changed values: each
    /// side's parents to look at again), kept from call to call.
    parts: Vec<[Vec<u32>; 2]>,
    /// Where the parents are generated: the in-group parents the backward
    /// search found of the first nodes of `nodes`, each node's list in turn
    /// (`kin_end[i]` where that of `nodes[i]` ends), as many as
    /// [`Group::kin_budget`] entries hold, so that the parents of the
    /// changed values are not generated again.
    kin: Vec<u32>,
    kin_end: Vec<u32>,
}

/// The parents a backward search kept ([`Scratch::kin`]), seen from a
/// stretch of its nodes that begins at its `base`-th node.
#[derive(Clone, Copy)]
struct Kept<'k> {
    kin: &'k [u32],
    end: &'k [u32],
    base: usize,
}

impl<'k> Kept<'k> {
    /// Whether the parents of the stretch's `i`-th node were kept.
    #[inline]
    fn has(&self, i: usize) -> bool {
        self.base + i < self.end.len()
    }

    /// The kept parents of the stretch's `i`-th node.
    #[inline]
    fn of(&self, i: usize) -> &'k [u32] {
        let k = self.base + i;
        let from = if k == 0 { 0 } else { self.end[k - 1] as usize };
        &self.kin[from..self.end[k] as usize]
    }
}

/// Keeps `parents` as the next node's in `kin` if they fit in `budget`
/// entries with the ends (`kin_end`); returns whether they did (the nodes
/// after are not kept).
#[inline]
fn keep_kin(kin: &mut Vec<u32>, kin_end: &mut Vec<u32>, parents: &[u32], budget: usize) -> bool {
    if kin.len() + kin_end.len() + 1 + parents.len() > budget {
        return false;
    }
    kin.extend_from_slice(parents);
    kin_end.push(kin.len() as u32);
    true
}

/// At least `chunks` buffers in `parts` (they are only ever added).
fn grow_parts(parts: &mut Vec<[Vec<u32>; 2]>, chunks: usize) {
    if parts.len() < chunks {
        parts.resize_with(chunks, Default::default);
    }
}

/// Values on a cycle `c0 → c1 → … → c0` of the functional graph, each
/// node with its `a` and its successor's weight: each entry's `a` is
/// replaced by its node's value.
fn solve_cycle(cyc: &mut [(u32, f64, f64)]) {
    let k = cyc.len();
    if endless(cyc) {
        // Nobody ever leaves: endless play.
        for c in cyc.iter_mut() {
            c.1 = 0.0;
        }
        return;
    }
    // v(c_i) = alpha + beta · v(c0), from the end of the cycle back.
    let (_, a, w) = cyc[k - 1];
    let (mut alpha, mut beta) = (a, -w);
    for &(_, a, w) in cyc[..k - 1].iter().rev() {
        alpha = a - w * alpha;
        beta *= -w;
    }
    // Near 1 (a long cycle that leaves only by the discount) `1 − β`
    // comes from the logarithms, not from a difference of nearly equal
    // numbers. `α` is 0 unless some node of the cycle exits after a throw,
    // and then `1 − β` is at least that throw's chance: the quotient keeps
    // its precision.
    let mut d = 1.0 - beta;
    if d < 0.5 {
        d = -cyc.iter().map(|c| c.2.ln()).sum::<f64>().exp_m1();
    }
    cyc[0].1 = alpha / d;
    // Each node from its successor, the next entry (the last from the first).
    for i in (1..k).rev() {
        let next = cyc[(i + 1) % k].1;
        let (_, a, w) = cyc[i];
        cyc[i].1 = a - w * next;
    }
}

/// A cycle's entries turned to begin at its least node, so that its values
/// do not depend on where a walk entered it.
fn least_first(cyc: &mut [(u32, f64, f64)]) -> &mut [(u32, f64, f64)] {
    let least = (0..cyc.len()).min_by_key(|&i| cyc[i].0).unwrap_or(0);
    cyc.rotate_left(least);
    cyc
}

/// Whether walks from `len` nodes are made by all threads at once: enough
/// of them, more than one thread, and each thread's index fits a walker's
/// mark.
fn walks(len: usize) -> bool {
    let threads = rayon::current_num_threads();
    len >= PARALLEL_LEVEL && threads > 1 && threads < usize::from(WALKING)
}

/// Marks each node of `nodes` `to` (large lists in parallel).
fn set_marks(mark: &mut [u8], nodes: &[u32], to: u8) {
    let marks = atomic_marks(mark);
    nodes.par_iter().with_min_len(PARALLEL_LEVEL).for_each(|&g| marks[g as usize].store(to, Relaxed));
}

/// A view of the nodes' marks that threads may read and write at once.
fn atomic_marks(mark: &mut [u8]) -> &[AtomicU8] {
    // SAFETY: `AtomicU8` has the size and alignment of `u8`, and `mark` is
    // borrowed uniquely for as long as the view lives.
    unsafe { &*(mark as *mut [u8] as *const [AtomicU8]) }
}

/// The values of a walk by all threads ([`Group::walk_all`]), shared: a
/// node's value is written by the walker that holds its mark, and read by
/// others only once the mark says it is done.
struct SharedValues<'a>(&'a [AtomicU64]);

impl<'a> SharedValues<'a> {
    fn new(val: &'a mut [f64]) -> SharedValues<'a> {
        const { assert!(std::mem::align_of::<f64>() == std::mem::align_of::<AtomicU64>()) };
        // SAFETY: `AtomicU64` has the size of `f64` and (checked above) its
        // alignment, and `val` is borrowed uniquely for as long as the view
        // lives.
        SharedValues(unsafe { &*(val as *mut [f64] as *const [AtomicU64]) })
    }

    #[inline]
    fn get(&self, g: usize) -> f64 {
        f64::from_bits(self.0[g].load(Relaxed))
    }

    #[inline]
    fn set(&self, g: usize, v: f64) {
        self.0[g].store(v.to_bits(), Relaxed);
    }
}

/// A cycle of path entries `(node, a, w)` that nobody ever leaves: every
/// weight 1 (no exit, no discount).
fn endless(cyc: &[(u32, f64, f64)]) -> bool {
    cyc.iter().all(|c| c.2 == 1.0)
}

/// What `Group::follow` computes along the functional graph of a pair of
/// strategies, where a node's value is `a − w · v(successor)`.
trait Along: Sync {
    /// A node that depends on no successor (its value is `a`).
    fn fixed(&self, a: f64) -> f64;
    /// A node from its successor's quantity.
    fn step(&self, a: f64, w: f64, next: f64) -> f64;
    /// Every node of a cycle of path entries `(node, a, w)`, from its first
    /// entry: each entry's `a` is replaced by its node's quantity.
    fn cycle(&self, cyc: &mut [(u32, f64, f64)]);
}

/// The values themselves.
struct Evaluation;

impl Along for Evaluation {
    #[inline]
    fn fixed(&self, a: f64) -> f64 {
        a
    }

    #[inline]
    fn step(&self, a: f64, w: f64, next: f64) -> f64 {
        a - w * next
    }

    fn cycle(&self, cyc: &mut [(u32, f64, f64)]) {
        solve_cycle(cyc)
    }
}

/// A bound on the rounding error of the values, in units of roundoff. A
/// step `v = a − w · v'` (all three at most 1 in size, `w ≤ 1`) adds at most
/// `8u` to the error it carries; a cycle of `k` steps solved in closed form
/// `α / (1 − β)` has at most `((9k + 1) / (1 − β) + 8k) u` (`α` and `β` are
/// `k` steps of such arithmetic); a cycle that never stops is exactly 0.
struct RoundingBound;

impl Along for RoundingBound {
    fn fixed(&self, _: f64) -> f64 {
        8.0
    }

    fn step(&self, _: f64, _: f64, next: f64) -> f64 {
        next + 8.0
    }

    fn cycle(&self, cyc: &mut [(u32, f64, f64)]) {
        let k = cyc.len() as f64;
        let beta = cyc.iter().map(|c| -c.2).product::<f64>();
        let e = if endless(cyc) { 0.0 } else { (9.0 * k + 1.0) / (1.0 - beta) + 8.0 * k };
        for c in cyc.iter_mut() {
            c.1 = e;
        }
    }
}

/// Owners per block of [`Lists`]: each block's lists start at a 64-bit
/// offset, and each owner's list at a 32-bit offset from it (a block's lists
/// hold far fewer than 2³² items).
const LIST_BLOCK_SHIFT: u32 = 12;

/// Lists of items, one list per owner, stored flat: owner `j`'s items are
/// `items[start(j)..start(j + 1)]`, where `start(j)` is its block's offset
/// plus its own (4 bytes per owner instead of 8).
#[derive(Default)]
struct Lists<T> {
    block: Vec<u64>,
    off: Vec<u32>,
    items: Vec<T>,
}

/// Builds the offsets of [`Lists`] from the lengths of the lists, one owner
/// after another.
struct Offsets {
    block: Vec<u64>,
    off: Vec<u32>,
    end: u64,
}

impl Offsets {
    fn with_capacity(owners: usize) -> Offsets {
        let mut o = Offsets {
            block: Vec::with_capacity((owners >> LIST_BLOCK_SHIFT) + 1),
            off: Vec::with_capacity(owners + 1),
            end: 0,
        };
        o.mark();
        o
    }

    /// Records where the next owner's list starts (the current end).
    #[inline]
    fn mark(&mut self) {
        let j = self.off.len();
        if j & ((1 << LIST_BLOCK_SHIFT) - 1) == 0 {
            self.block.push(self.end);
        }
        let base = self.block[j >> LIST_BLOCK_SHIFT];
        self.off.push(u32::try_from(self.end - base).expect("a block of lists holds fewer than 2³² items"));
    }

    /// The next owner's list holds `len` items.
    #[inline]
    fn push(&mut self, len: u64) {
        self.end += len;
        self.mark();
    }

    /// The lists with these offsets over `items`.
    fn over<T>(self, items: Vec<T>) -> Lists<T> {
        debug_assert_eq!(self.end, items.len() as u64);
        Lists { block: self.block, off: self.off, items }
    }
}

impl<T: Copy + Send + Sync> Lists<T> {
    /// The lists `f` appends for owners `0..owners` (in parallel, in
    /// blocks), with what it returns for each owner; `obs` advances per
    /// block. `f` also gets a state of its block's own (made by `init`),
    /// which sees the block's owners in ascending order.
    fn build_with<A: Send, S>(
        owners: usize,
        init: impl Fn() -> S + Sync,
        f: impl Fn(&mut S, usize, &mut Vec<T>) -> A + Sync,
        obs: &dyn Observer,
    ) -> (Lists<T>, Vec<A>) {
        let blocks: Vec<(Vec<A>, Vec<u32>, Vec<T>)> = (0..owners.div_ceil(BUILD_BLOCK))
            .into_par_iter()
            .map(|b| {
                let range = b * BUILD_BLOCK..((b + 1) * BUILD_BLOCK).min(owners);
                let (mut out, mut len, mut items) = (Vec::with_capacity(range.len()), Vec::new(), Vec::new());
                obs.advance(range.len() as u64);
                let mut state = init();
                for j in range {
                    let before = items.len();
                    out.push(f(&mut state, j, &mut items));
                    len.push((items.len() - before) as u32);
                }
                (out, len, items)
            })
            .collect();
        let total = blocks.iter().map(|b| b.2.len()).sum();
        let mut offsets = Offsets::with_capacity(owners);
        for (_, len, _) in &blocks {
            for &l in len {
                offsets.push(u64::from(l));
            }
        }
        // The blocks' items and results gathered in place, in parallel.
        let mut all: Vec<T> = Vec::with_capacity(total);
        let mut out: Vec<A> = Vec::with_capacity(owners);
        let items_at = cut(&mut all.spare_capacity_mut()[..total], blocks.iter().map(|b| b.2.len()));
        let out_at = cut(&mut out.spare_capacity_mut()[..owners], blocks.iter().map(|b| b.0.len()));
        blocks.into_par_iter().zip(items_at).zip(out_at).for_each(|(((o, _, items), to_items), to_out)| {
            for (d, x) in to_items.iter_mut().zip(items) {
                d.write(x);
            }
            for (d, x) in to_out.iter_mut().zip(o) {
                d.write(x);
            }
        });
        // SAFETY: the pieces cover the first `total` and `owners` places, and
        // each piece was written whole (its block's items and results, of
        // its length).
        unsafe {
            all.set_len(total);
            out.set_len(owners);
        }
        (offsets.over(all), out)
    }

    /// The lists `f(j)` gives for owners `0..owners`, in two passes (each
    /// list's length, then the lists into their places, in parallel): beside
    /// the lists, nothing but 4 bytes per owner for a while.
    fn build_counted(owners: usize, f: impl Fn(usize) -> SmallVec<[T; 64]> + Sync) -> Lists<T>
    where
        T: Default,
    {
        let lens: Vec<u32> = (0..owners).into_par_iter().with_min_len(CHUNK).map(|j| f(j).len() as u32).collect();
        let mut offsets = Offsets::with_capacity(owners);
        for &l in &lens {
            offsets.push(u64::from(l));
        }
        drop(lens);
        let total = usize::try_from(offsets.end).expect("lists that fit the memory");
        let mut lists = offsets.over(vec![T::default(); total]);
        let blocks = owners.div_ceil(BUILD_BLOCK);
        let range = |b: usize| b * BUILD_BLOCK..((b + 1) * BUILD_BLOCK).min(owners);
        let (block, off) = (&lists.block, &lists.off);
        let at = |j: usize| list_start(block, off, j);
        let pieces = cut(&mut lists.items, (0..blocks).map(|b| at(range(b).end) - at(range(b).start)));
        pieces.into_par_iter().enumerate().for_each(|(b, piece)| {
            let mut k = 0;
            for j in range(b) {
                let list = f(j);
                assert_eq!(list.len(), at(j + 1) - at(j), "a list as long as it was counted");
                piece[k..k + list.len()].copy_from_slice(&list);
                k += list.len();
            }
        });
        lists
    }

    /// Where owner `j`'s list starts (`j` up to the number of owners).
    #[inline]
    fn start(&self, j: usize) -> usize {
        list_start(&self.block, &self.off, j)
    }

    /// Owner `j`'s items.
    #[inline]
    fn get(&self, j: usize) -> &[T] {
        &self.items[self.start(j)..self.start(j + 1)]
    }

    /// The number of owners.
    fn owners(&self) -> usize {
        self.off.len().saturating_sub(1)
    }

    /// For each of `m` targets, the owners whose lists hold an item naming
    /// it (by `target`), in owner order. Each thread takes a range of the
    /// targets (whole blocks of offsets) and reads every list for the items
    /// naming one of its own.
    fn reverse(&self, m: usize, target: impl Fn(&T) -> usize + Sync) -> Lists<u32> {
        let blocks = m.div_ceil(1 << LIST_BLOCK_SHIFT);
        let pieces = rayon::current_num_threads().clamp(1, blocks.max(1));
        let edge = |k: usize| ((blocks * k / pieces) << LIST_BLOCK_SHIFT).min(m);
        let ranges: Vec<std::ops::Range<usize>> = (0..pieces).map(|k| edge(k)..edge(k + 1)).collect();
        let mut count = vec![0u32; m];
        let counts = cut(&mut count, ranges.iter().map(|r| r.len()));
        ranges.par_iter().zip(counts).for_each(|(r, count)| {
            for it in &self.items {
                let t = target(it);
                if r.contains(&t) {
                    count[t - r.start] += 1;
                }
            }
        });
        let mut offsets = Offsets::with_capacity(m);
        for c in &count {
            offsets.push(u64::from(*c));
        }
        drop(count);
        let mut lists = offsets.over(vec![0u32; self.items.len()]);
        // Each target's next free place, relative to its block's offset.
        let mut fill = lists.off[..m].to_vec();
        let (block, off) = (&lists.block, &lists.off);
        let start = |t: usize| list_start(block, off, t);
        // A range's lists are one stretch of the items.
        let stretches = cut(&mut lists.items, ranges.iter().map(|r| start(r.end) - start(r.start)));
        let fills = cut(&mut fill, ranges.iter().map(|r| r.len()));
        ranges.par_iter().zip(stretches).zip(fills).for_each(|((r, items), fill)| {
            let origin = start(r.start);
            for j in 0..self.owners() {
                for it in self.get(j) {
                    let t = target(it);
                    if r.contains(&t) {
                        let f = &mut fill[t - r.start];
                        items[(block[t >> LIST_BLOCK_SHIFT] + u64::from(*f)) as usize - origin] = j as u32;
                        *f += 1;
                    }
                }
            }
        });
        lists
    }
}

/// Where owner `j`'s list starts, by the offsets of [`Lists`] (apart from
/// its items, which may be borrowed elsewhere).
#[inline]
fn list_start(block: &[u64], off: &[u32], j: usize) -> usize {
    (block[j >> LIST_BLOCK_SHIFT] + u64::from(off[j])) as usize
}

/// `slice` cut into consecutive pieces of the lengths `lens`.
fn cut<X>(mut slice: &mut [X], lens: impl Iterator<Item = usize>) -> Vec<&mut [X]> {
    lens.map(|len| {
        let (here, rest) = std::mem::take(&mut slice).split_at_mut(len);
        slice = rest;
        here
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::merels::{BoardKind, Dice};

    /// Children's values for the side to reply: child `c` is worth `-kv[c]`
    /// to the side choosing.
    const KV: [f64; 3] = [-0.5, -0.6, -0.55];

    #[test]
    fn a_saved_head_reads_back_with_its_part_and_discount() {
        let stats = Stats { rounds: 40, discounts: 1, ..Stats::default() };
        for (phase, discounts, name) in [
            (SEARCH, 1, "the discounted search"),
            (SECOND_COPY, 1, "the second copy"),
            (LATER_SEARCH, 2, "the second discount's search"),
            (LATER_SEARCH, 3, "the third discount's search"),
        ] {
            let level_stats = Stats { rounds: 17, discounts, gap: 2e-7, ..Stats::default() };
            let head = saved_head(5, phase, 9, 1.5e-8, &stats, &level_stats);
            assert_eq!(head.len(), SAVED_PLACE_BYTES);
            assert_eq!(saved_place(&head, true), Some((5, Some((name, 17)))));
            assert_eq!(saved_place(&head, false), Some((5, None)));
            assert_eq!(saved_place(&head[..SAVED_PLACE_BYTES - 1], true), None, "cut short");
            let h = decode_head(&mut &head[..]).expect("the head");
            assert_eq!((h.level, h.phase, h.offset, h.error), (5, phase, 9, 1.5e-8));
            let back = Stats::from_fields(&h.efforts[1]).expect("the level's effort");
            assert_eq!((back.rounds, back.discounts, back.gap), (17, discounts, 2e-7));
        }
    }

    #[test]
    fn a_node_that_stays_leaves_for_a_better_exit() {
        // Staying in child 0 (worth 0.5, the best child) after both throws;
        // both exits are worth 0.7.
        let (m, next) = choose(HAS_KIDS | STAY_N | STAY_S, 0, 0, 0.5, &KV, 1.0, TOL, to_code(0.7), to_code(0.7));
        assert_eq!((m, next), (HAS_KIDS, NONE));
        // A better child than the current one, but a better exit still.
        let (m, next) = choose(HAS_KIDS | STAY_N | STAY_S, 0, 1, 0.6, &KV, 1.0, TOL, to_code(0.7), to_code(0.7));
        assert_eq!((m, next), (HAS_KIDS, NONE));
    }

    #[test]
    fn each_throw_takes_the_better_of_exit_and_child() {
        // Best child 1 (0.6) beats the special exit (0.55) but not the normal
        // one (0.7).
        let (m, next) = choose(HAS_KIDS | STAY_N | STAY_S, 0, 1, 0.6, &KV, 1.0, TOL, to_code(0.7), to_code(0.55));
        assert_eq!((m, next), (HAS_KIDS | STAY_S, 1));
        // From exits worth 0.3, a child worth 0.6 is taken after both throws.
        let (m, next) = choose(HAS_KIDS, NONE, 1, 0.6, &KV, 1.0, TOL, to_code(0.3), to_code(0.3));
        assert_eq!((m, next), (HAS_KIDS | STAY_N | STAY_S, 1));
    }

    #[test]
    fn ties_keep_the_current_choice() {
        let (m, next) = choose(HAS_KIDS | STAY_N, 0, 0, 0.5, &KV, 1.0, TOL, to_code(0.5), to_code(0.5));
        assert_eq!((m, next), (HAS_KIDS | STAY_N, 0));
        let (m, next) = choose(HAS_KIDS, NONE, 0, 0.5, &KV, 1.0, TOL, to_code(0.5), to_code(0.5));
        assert_eq!((m, next), (HAS_KIDS, NONE));
    }

    #[test]
    fn a_discount_weighs_the_children() {
        // A child worth 0.6 undiscounted is worth less than an exit of 0.6
        // in the discounted game.
        let (m, _) = choose(HAS_KIDS, NONE, 1, -0.9 * KV[1], &KV, 0.9, TOL, to_code(0.58), to_code(0.58));
        assert_eq!(m, HAS_KIDS);
    }

    /// Candidates whose progress ranks `check_ranks` compared.
    static RANKS_CHECKED: AtomicU64 = AtomicU64::new(0);

    /// The progress ranks by a plain breadth-first search (the slow twin of
    /// `Group::rank_progress_of`): the candidates found again by their
    /// definition, each one's equally good children among them in a list,
    /// the parents from those lists, one queue. Panics where `ranks` (of
    /// the candidates `ids`) differ.
    pub(super) fn check_ranks(g: &Group, node: &dyn Fn(usize) -> usize, ids: &[u32], ranks: &[u32]) {
        use std::collections::{BTreeMap, VecDeque};
        let val = |p: usize| g.stored_value(node(p));
        let x = exit_value;
        let mut cand = Vec::new();
        for p in 0..g.n {
            let v = val(p);
            if !matches!(g.kind[p], LIVE | SURE) || g.mode[p] & HAS_KIDS == 0 || v.abs() <= TIE {
                continue;
            }
            let best = g.kids(p).iter().map(|&c| -val(c as usize)).fold(f64::NEG_INFINITY, f64::max);
            let ties = |w: u32, e: u32| w > 0 && x(e) >= best - TIE;
            let stays = |w: u32, e: u32| w == 0 || best >= x(e) - TIE;
            let exit_ties = ties(g.w_n, g.en(p)) || ties(g.w_s, g.es(p));
            let can_stay = stays(g.w_n, g.en(p)) && stays(g.w_s, g.es(p));
            if (v > 0.0 && !exit_ties) || (v < 0.0 && can_stay) {
                cand.push(p);
            }
        }
        assert_eq!(cand.iter().map(|&p| p as u32).collect::<Vec<_>>(), ids, "candidates");
        let is_cand: BTreeMap<usize, usize> = cand.iter().enumerate().map(|(j, &p)| (p, j)).collect();
        let mut rank = vec![0u32; cand.len()];
        let mut parents: Vec<Vec<usize>> = vec![Vec::new(); cand.len()];
        for (j, &p) in cand.iter().enumerate() {
            let v = val(p);
            let good: Vec<usize> = g.kids(p).iter().map(|&c| c as usize).filter(|&c| -val(c) >= v - TIE).collect();
            let inside: Vec<usize> = good.iter().filter_map(|c| is_cand.get(c).copied()).collect();
            for &t in &inside {
                parents[t].push(j);
            }
            rank[j] = match (v > 0.0, inside.len() < good.len(), inside.len() as u32) {
                (true, true, _) | (false, _, 0) => 1,
                (true, false, _) => UNRANKED,
                (false, _, k) => WAITING | k,
            };
        }
        let mut queue: VecDeque<usize> = (0..cand.len()).filter(|&j| rank[j] == 1).collect();
        while let Some(c) = queue.pop_front() {
            for &p in &parents[c] {
                if rank[p] == UNRANKED || rank[p] == WAITING | 1 {
                    rank[p] = rank[c] + 1;
                    queue.push_back(p);
                } else if rank[p] & WAITING != 0 {
                    rank[p] -= 1;
                }
            }
        }
        for r in &mut rank {
            if *r & WAITING != 0 {
                *r = UNRANKED;
            }
        }
        assert_eq!(rank, ranks, "progress ranks");
        RANKS_CHECKED.fetch_add(cand.len() as u64, Relaxed);
    }

    /// The progress ranks, before the second copy and at the end, are
    /// those of a plain breadth-first search (`check_ranks`, called by
    /// every ranking in the tests) on six's groups under several rules.
    #[test]
    fn progress_ranks_are_a_breadth_first_search() {
        let six = Rules::new(BoardKind::Six, Dice::Schaedler);
        let before = RANKS_CHECKED.load(Relaxed);
        six_groups(&[six, Rules { flying: true, ..six }, Rules { special_72: 20, ..six }], |rules, group, g| {
            let (_, stats) = g.run(0.0, &Silent);
            assert!(stats.ranked > 0, "{}, {group:?}", rules.label());
        });
        assert!(RANKS_CHECKED.load(Relaxed) - before > 10_000);
    }

    /// Six men's morris under each of `variants` (of Schädler's dice) solved
    /// up to 8 men (every exit of the groups below), and `f` given each
    /// variant's groups of 3 v 3, 3 v 5, 4 v 4 and 4 v 5 as built.
    fn six_groups(variants: &[Rules], mut f: impl FnMut(&Rules, &[&str], Group<'_>)) {
        use crate::merels::solution::{Solution, SolveOptions};
        for rules in variants {
            let opts = SolveOptions { max_men: Some(8), ..SolveOptions::default() };
            let known = Solution::solve_with(*rules, &opts, &Silent).expect("solve");
            for group in [&["3-0-3-0"][..], &["3-0-5-0", "5-0-3-0"], &["4-0-4-0"], &["4-0-5-0", "5-0-4-0"]] {
                let ix = group
                    .iter()
                    .map(|k| Indexer::new(known.board_tables.clone(), Sector::from_key(k).expect("a sector key")))
                    .collect();
                f(rules, group, Group::new(rules, &known, ix, &Silent));
            }
        }
    }

    /// The sure wins and losses by the definition, swept over every
    /// position until nothing changes (the slow twin of `Group::settle`):
    /// +1 where after every throw an exit is worth +1 or a child is a sure
    /// loss (or lost), −1 where after every throw every exit is worth −1 and
    /// every child is a sure win.
    fn sure_by_sweeps(g: &Group) -> Vec<i8> {
        let weighs = |w: u32, code: u32, v: f64| w == 0 || exit_value(code) == v;
        let mut sure: Vec<i8> = g.kind.iter().map(|&k| if k == FIXED { -1 } else { 0 }).collect();
        loop {
            let mut changed = false;
            for p in 0..g.n {
                if g.kind[p] != LIVE || sure[p] != 0 {
                    continue;
                }
                let kids = g.kids(p);
                let wins = kids.iter().any(|&c| sure[c as usize] == -1)
                    || (weighs(g.w_n, g.en(p), 1.0) && weighs(g.w_s, g.es(p), 1.0));
                let loses = kids.iter().all(|&c| sure[c as usize] == 1)
                    && (g.w_n == 0 || g.en(p) == NONE || exit_value(g.en(p)) == -1.0)
                    && (g.w_s == 0 || g.es(p) == NONE || exit_value(g.es(p)) == -1.0);
                if wins || loses {
                    sure[p] = if wins { 1 } else { -1 };
                    changed = true;
                }
            }
            if !changed {
                return sure;
            }
        }
    }

    /// The retrograde pass settles exactly the positions the definition
    /// makes sure, at ±1 on both of their nodes, and leaves their choices
    /// to none: six's groups under Schädler's dice, with blocked players
    /// passing, with flying men and with another chance of the special throw.
    #[test]
    fn settling_finds_the_sure_wins_and_losses_by_definition() {
        let six = Rules::new(BoardKind::Six, Dice::Schaedler);
        let mut settled = 0;
        let variants = [
            six,
            Rules { blocked: Blocked::Pass, ..six },
            Rules { flying: true, ..six },
            Rules { special_72: 20, ..six },
        ];
        six_groups(&variants, |rules, group, mut g| {
            let want = sure_by_sweeps(&g);
            let n = g.n;
            let live_and_sure = (0..n).filter(|&p| g.kind[p] == LIVE && want[p] != 0).count();
            let count = g.settle();
            settled += count;
            assert_eq!(count as usize, live_and_sure, "{}, {group:?}", rules.label());
            for (p, &w) in want.iter().enumerate() {
                let label = || format!("{}, {group:?}, position {p}", rules.label());
                if g.kind[p] != SURE {
                    assert!(w == 0 || g.kind[p] == FIXED, "{}", label());
                    continue;
                }
                assert_ne!(w, 0, "{}", label());
                for node in [p, n + p] {
                    assert_eq!(g.val[node], f64::from(w), "{}", label());
                    assert_eq!((g.next[node], g.mode[node] & !HAS_KIDS), (NONE, 0), "{}", label());
                }
            }
        });
        assert!(settled > 1000, "{settled}");
    }

    proptest::proptest! {
        /// A member's slot is its place in the sorted list; others have none.
        #[test]
        fn members_find_their_place(mut set in proptest::collection::vec(0u32..700, 0..200), n in 700usize..900) {
            set.sort_unstable();
            set.dedup();
            let members = Members::new(n, &set);
            for p in 0..n as u32 + 70 {
                proptest::prop_assert_eq!(members.slot(p), set.binary_search(&p).ok().map(|j| j as u32));
            }
            proptest::prop_assert_eq!(members.len(), set.len());
            for (k, &p) in set.iter().enumerate() {
                proptest::prop_assert_eq!(members.select(k as u32), p);
            }
        }

        /// Built lists hold what each owner appended; reversed, each target
        /// lists the owners naming it, in order, as often as they name it
        /// (owners and targets spanning several blocks of offsets).
        #[test]
        fn lists_build_and_reverse(
            lists in proptest::collection::vec(proptest::collection::vec(0u32..9_000, 0..7), 0..20_000),
        ) {
            let (built, sizes) = Lists::build_with(lists.len(), || (), |_, j, out| {
                out.extend_from_slice(&lists[j]);
                lists[j].len()
            }, &Silent);
            for (j, l) in lists.iter().enumerate() {
                proptest::prop_assert_eq!(built.get(j), &l[..]);
                proptest::prop_assert_eq!(sizes[j], l.len());
            }
            let back = built.reverse(9_000, |&t| t as usize);
            let mut naive = vec![Vec::new(); 9_000];
            for (j, l) in lists.iter().enumerate() {
                for &t in l {
                    naive[t as usize].push(j as u32);
                }
            }
            for (t, owners) in naive.iter().enumerate() {
                proptest::prop_assert_eq!(back.get(t), &owners[..]);
            }
        }
    }

    /// The codes and ranks kept a part at a time in the order of their
    /// indices are those of an array per index written part by part (as
    /// the solve kept them before): parts that interleave, positions of no
    /// use left out, ranks raised and saturated.
    #[test]
    fn outputs_keep_the_parts_as_arrays_per_index_would() {
        use crate::merels::index::{BoardTables, Indexer};
        use engine::merels::{BoardKind, Dice};
        let tables = BoardTables::new(Rules::new(BoardKind::Six, Dice::Schaedler).board);
        let ix: Vec<Indexer> = ["3-0-4-0", "4-0-3-0"]
            .iter()
            .map(|k| Indexer::new(tables.clone(), Sector::from_key(k).expect("a sector key")))
            .collect();
        let base = bases(&ix);
        let all = *base.last().expect("base") as usize;
        // A fixed scramble: which part each index falls in, its kind, value
        // and rank.
        let hash = |at: usize, salt: u64| (at as u64 ^ salt).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40;
        let mut out = Outputs::new(&ix);
        let mut codes: Vec<Vec<u32>> = ix.iter().map(|x| vec![CODE_UNUSED; x.size() as usize]).collect();
        let mut ranks: Vec<Vec<u16>> = ix.iter().map(|x| vec![0; x.size() as usize]).collect();
        let mut offset = 0u32;
        for part in 0..3u64 {
            let ids: Vec<u32> = (0..all as u32).filter(|&at| hash(at as usize, 1) % 3 == part).collect();
            let kind: Vec<u8> =
                ids.iter().map(|&at| if hash(at as usize, 2) % 7 == 0 { UNUSED } else { LIVE }).collect();
            let val: Vec<f64> = ids.iter().map(|&at| (hash(at as usize, 3) % 2001) as f64 / 1000.0 - 1.0).collect();
            let value_codes: Vec<u32> = val.iter().map(|&v| to_code(v)).collect();
            // Only positions in use are ranked (candidates are live or sure).
            let ranked: Vec<u32> =
                (0..ids.len() as u32).filter(|&p| kind[p as usize] != UNUSED && hash(p as usize, 4) % 4 == 0).collect();
            let rank: Vec<u32> = ranked.iter().map(|&p| (hash(p as usize, 5) % 70_000) as u32).collect();
            for p in 0..ids.len() {
                let (slot, i) = place(&base, ids[p] as usize);
                codes[slot][i as usize] = if kind[p] == UNUSED { CODE_UNUSED } else { to_code(val[p]) };
            }
            for (&p, &r) in ranked.iter().zip(&rank) {
                let (slot, i) = place(&base, ids[p as usize] as usize);
                ranks[slot][i as usize] = r.saturating_add(offset).min(u16::MAX as u32) as u16;
            }
            let members = Some(Members::new(all, &ids));
            let solved = Solved {
                members,
                kind,
                codes: value_codes,
                rank: Ranks { ids: ranked, rank },
                stats: Stats::default(),
                error: 0.0,
            };
            out.keep(&solved, offset);
            offset += 30_000;
            for at in 0..all {
                let (slot, i) = place(&base, at);
                let want = codes[slot][i as usize];
                assert_eq!(out.code(at as u64), want, "index {at} after part {part}");
            }
        }
        let got = out.tables(ix, &Stats::default(), 0.0);
        for (slot, t) in got.iter().enumerate() {
            assert!(matches!(&t.values, Values::Chance(c) if *c == codes[slot]), "codes of sector {slot}");
            let differ = t.rank.iter().zip(&ranks[slot]).position(|(a, b)| a != b);
            assert!(
                t.rank.len() == ranks[slot].len() && differ.is_none(),
                "ranks of sector {slot} differ at {differ:?}"
            );
        }
        assert!(ranks.iter().flatten().any(|&r| r == u16::MAX), "some ranks saturate");
    }
}
