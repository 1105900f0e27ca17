//! The arena: two bots play a match of many games of one [`Game`].
//!
//! Game `i` is played from its own seed, derived from the match seed and
//! `i` alone: its chance outcomes and both agents' random choices come from
//! it, so a match is the same whatever the number of threads (unless a bot
//! plays by the clock). Bot A moves first in even games, B in odd ones.
//! Every action a bot chooses is checked against the legal ones: an illegal
//! action is a bug, reported as an error. A game longer than the ply limit
//! is a draw.

use std::fmt;
use std::io;
use std::ops::ControlFlow;

use rand::Rng as _;
use rayon::prelude::*;
use serde::Serialize;

use crate::game::{Game, Outcome, Turn};
use crate::players::{Bot, rng};
use crate::stats::{MIN_SAMPLE, Z95, wilson};

/// How a match is played.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub games: usize,
    pub seed: u64,
    /// Players' turns after which an unfinished game is a draw.
    pub max_plies: usize,
    /// Threads playing games at once (0: one per core).
    pub threads: usize,
}

/// SplitMix64's finaliser: spreads seeds apart.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of game `index` of a match.
pub fn game_seed(seed: u64, index: usize) -> u64 {
    mix(mix(seed) ^ index as u64)
}

/// One game as played.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The players' actions in notation (chance outcomes show in them: a
    /// dice merels move after a throw is written `special:a1^d1`).
    pub moves: Vec<String>,
    /// Players' turns played.
    pub plies: usize,
    pub outcome: Outcome,
    /// Drawn by the ply limit.
    pub ply_limit: bool,
}

/// A bot chose an action that is not legal.
#[derive(Clone, Debug, PartialEq)]
pub struct IllegalAction {
    pub bot: String,
    pub player: usize,
    pub ply: usize,
    pub action: String,
    pub moves: Vec<String>,
}

impl std::fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bot {} (player {}) chose the illegal action {} at ply {} after {}",
            self.bot,
            self.player,
            self.action,
            self.ply + 1,
            if self.moves.is_empty() { "no moves".to_string() } else { self.moves.join(" ") }
        )
    }
}

impl std::error::Error for IllegalAction {}

/// Plays one game: `bots[p]` is player `p`; `agent_seeds[p]` seeds its agent.
pub fn play_game<G: Game>(
    game: &G,
    bots: [&dyn Bot<G>; 2],
    seed: u64,
    agent_seeds: [u64; 2],
    max_plies: usize,
) -> Result<Played, IllegalAction> {
    let mut chance = rng(mix(seed ^ 0xC4A2_CE00));
    let mut agents = [bots[0].agent(agent_seeds[0]), bots[1].agent(agent_seeds[1])];
    let mut st = game.start();
    let mut moves = Vec::new();
    let mut plies = 0;
    loop {
        if let Some(outcome) = game.result(&st) {
            return Ok(Played { moves, plies, outcome, ply_limit: false });
        }
        match game.turn(&st) {
            Turn::Chance => {
                let outcomes = game.chances(&st);
                let mut x = chance.random::<f64>();
                let mut pick = outcomes.len() - 1;
                for (i, (_, p)) in outcomes.iter().enumerate() {
                    x -= p;
                    if x < 0.0 {
                        pick = i;
                        break;
                    }
                }
                st = game.apply(&st, outcomes[pick].0);
            }
            Turn::Player(p) => {
                if plies >= max_plies {
                    return Ok(Played { moves, plies, outcome: Outcome::Draw, ply_limit: true });
                }
                let legal = game.actions(&st);
                let a = agents[p].choose(game, &st);
                if !legal.contains(&a) {
                    return Err(IllegalAction {
                        bot: bots[p].name(),
                        player: p,
                        ply: plies,
                        action: format!("{} ({a:?})", game.action_text(&st, a)),
                        moves,
                    });
                }
                moves.push(game.action_text(&st, a));
                st = game.apply(&st, a);
                plies += 1;
            }
        }
    }
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLog {
    pub index: usize,
    pub seed: u64,
    /// A moved first.
    pub a_first: bool,
    pub played: Played,
}

impl GameLog {
    /// A's score: 1, ½ or 0.
    pub fn a_score(&self) -> f64 {
        self.played.outcome.score(if self.a_first { 0 } else { 1 })
    }
}

/// Games played between two hand-overs to [`run_with`]'s `each`: the most
/// game logs a match holds at once, whatever its length.
const CHUNK: usize = 1024;

/// Plays a match; `progress` is called after each game. Returns every
/// game (a long match is better played by [`run_with`], whose memory does
/// not grow with the match).
pub fn run<G: Game>(
    game: &G,
    a: &dyn Bot<G>,
    b: &dyn Bot<G>,
    cfg: &Config,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<GameLog>, MatchError> {
    let mut logs = Vec::with_capacity(cfg.games);
    run_with(game, a, b, cfg, progress, &mut |g| {
        logs.push(g.clone());
        Ok(())
    })?;
    Ok(logs)
}

/// Why a match stopped before its end.
#[derive(Debug)]
pub enum MatchError {
    /// The threads asked for could not be started.
    Threads { threads: usize, error: rayon::ThreadPoolBuildError },
    /// A bot chose an illegal action in game `index` (seed `seed`).
    Illegal { index: usize, seed: u64, error: IllegalAction },
    /// Handing a game on (writing its record, say) failed.
    Each(io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Threads { threads, error } => write!(f, "cannot start {threads} threads: {error}"),
            MatchError::Illegal { index, seed, error } => {
                write!(f, "illegal action in game {index} (seed {seed}): {error}")
            }
            MatchError::Each(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MatchError::Threads { error, .. } => Some(error),
            MatchError::Illegal { error, .. } => Some(error),
            MatchError::Each(e) => Some(e),
        }
    }
}

/// Plays a match in constant memory: games are played in parallel a chunk
/// at a time, then handed to `each` in the order of their indices (to
/// write a record, say) and counted. Returns the match's summary; an error
/// of `each` stops the match.
pub fn run_with<G: Game>(
    game: &G,
    a: &dyn Bot<G>,
    b: &dyn Bot<G>,
    cfg: &Config,
    progress: &(dyn Fn() + Sync),
    each: &mut dyn FnMut(&GameLog) -> io::Result<()>,
) -> Result<Summary, MatchError> {
    let mut tally = Tally::default();
    run_until(game, a, b, cfg, CHUNK, progress, &mut |g| {
        each(g)?;
        tally.add(g);
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(tally.summary())
}

/// Plays games 0, 1, 2, … of a match, `batch` at a time in parallel, and
/// hands them to `each` in the order of their indices until it breaks or
/// `cfg.games` are played: where a match stops depends on its games alone,
/// not on the threads (games of the last batch after the break are played
/// and dropped). An error of `each` stops the match.
pub fn run_until<G: Game>(
    game: &G,
    a: &dyn Bot<G>,
    b: &dyn Bot<G>,
    cfg: &Config,
    batch: usize,
    progress: &(dyn Fn() + Sync),
    each: &mut dyn FnMut(&GameLog) -> io::Result<ControlFlow<()>>,
) -> Result<(), MatchError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads)
        .build()
        .map_err(|error| MatchError::Threads { threads: cfg.threads, error })?;
    for first in (0..cfg.games).step_by(batch.max(1)) {
        let part = first..(first + batch.max(1)).min(cfg.games);
        let logs: Vec<GameLog> = pool.install(|| {
            part.into_par_iter()
                .map(|index| {
                    let g = play_indexed(game, a, b, cfg, index)?;
                    progress();
                    Ok(g)
                })
                .collect::<Result<_, MatchError>>()
        })?;
        for g in &logs {
            if each(g).map_err(MatchError::Each)?.is_break() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Plays game `index` of a match: its seed from the match's, A first in the
/// even games.
fn play_indexed<G: Game>(
    game: &G,
    a: &dyn Bot<G>,
    b: &dyn Bot<G>,
    cfg: &Config,
    index: usize,
) -> Result<GameLog, MatchError> {
    let seed = game_seed(cfg.seed, index);
    let a_first = index.is_multiple_of(2);
    let (sa, sb) = (mix(seed ^ 0xA), mix(seed ^ 0xB));
    let (bots, seeds) = if a_first { ([a, b], [sa, sb]) } else { ([b, a], [sb, sa]) };
    let played = play_game(game, bots, seed, seeds, cfg.max_plies).map_err(|error| MatchError::Illegal {
        index,
        seed,
        error,
    })?;
    Ok(GameLog { index, seed, a_first, played })
}

/// A match's results counted game by game, in constant memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// A's results when moving first and second.
    pub a_first: Wdl,
    pub a_second: Wdl,
    pub ply_limit_draws: usize,
    pub plies: u64,
}

impl Tally {
    pub fn add(&mut self, g: &GameLog) {
        let s = g.a_score();
        if g.a_first {
            self.a_first.add(s)
        } else {
            self.a_second.add(s)
        }
        self.ply_limit_draws += g.played.ply_limit as usize;
        self.plies += g.played.plies as u64;
    }

    pub fn games(&self) -> usize {
        self.a_first.games() + self.a_second.games()
    }

    pub fn summary(&self) -> Summary {
        let (a_first, a_second) = (self.a_first, self.a_second);
        let a = a_first.plus(a_second);
        let (b_first, b_second) = (a_second.flipped(), a_first.flipped());
        let first = a_first.plus(b_first);
        let score = Score::of_wdl(a);
        let n = self.games();
        let (wl, wh) = wilson(first.wins as u64, n as u64);
        Summary {
            games: n,
            a_wins: a.wins,
            b_wins: a.losses,
            draws: a.draws,
            ply_limit_draws: self.ply_limit_draws,
            a_first,
            a_second,
            b_first,
            b_second,
            score,
            elo: elo(score.score),
            elo_low: elo(score.low),
            elo_high: elo(score.high),
            first_seat: FirstSeat {
                results: first,
                score: Score::of_wdl(first),
                win_rate: if n > 0 { first.wins as f64 / n as f64 } else { 0.0 },
                win_rate_low: wl,
                win_rate_high: wh,
            },
            average_plies: if n > 0 { self.plies as f64 / n as f64 } else { 0.0 },
        }
    }
}

/// A sequential probability ratio test between two Elo hypotheses about A
/// over B (H0: `elo0`, H1: `elo1`), with error rates `alpha` (accepting H1
/// when H0 holds) and `beta`: the generalised SPRT over game results scored
/// 1, ½, 0 that engine testers use, whose log-likelihood ratio is
/// `n (s1 − s0)(2 s − s0 − s1) / (2 σ²)` for the mean score `s`, the
/// per-game variance `σ²` and the scores `s0`, `s1` the hypotheses expect.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The log-likelihood ratio fell below the lower bound.
    AcceptH0,
    /// It rose above the upper bound.
    AcceptH1,
    /// Neither yet (the game limit came first, if the test is over).
    Continue,
}

/// The score an Elo difference expects: `1 / (1 + 10^(−elo/400))`.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An SPRT that cannot be run as asked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtError {
    /// The hypotheses are not finite, or elo0 is not below elo1.
    Hypotheses { elo0: f64, elo1: f64 },
    /// An error rate (`alpha` or `beta`) not strictly between 0 and 0.5.
    ErrorRate { name: &'static str, p: f64 },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::Hypotheses { elo0, elo1 } => {
                write!(f, "SPRT hypotheses elo0 = {elo0}, elo1 = {elo1}: elo0 must be below elo1")
            }
            SprtError::ErrorRate { name, p } => {
                write!(f, "SPRT {name} = {p}: choose an error rate above 0 and below 0.5")
            }
        }
    }
}

impl std::error::Error for SprtError {}

impl Sprt {
    /// Checks the hypotheses and error rates.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(SprtError::Hypotheses { elo0, elo1 });
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(SprtError::ErrorRate { name, p });
            }
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 over H0 after these results (0 while
    /// the results do not vary: nothing to estimate a variance from).
    pub fn llr(&self, r: &Wdl) -> f64 {
        let n = r.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = (r.wins as f64 + 0.5 * r.draws as f64) / n;
        let var =
            (r.wins as f64 * (1.0 - s).powi(2) + r.draws as f64 * (0.5 - s).powi(2) + r.losses as f64 * s * s) / n;
        if var <= 1e-12 {
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// Where the test stands after these results: no verdict before
    /// [`MIN_SAMPLE`] games, where the ratio's normal approximation does not
    /// hold yet.
    pub fn decide(&self, r: &Wdl) -> Decision {
        if (r.games() as u64) < MIN_SAMPLE {
            return Decision::Continue;
        }
        let (lo, hi) = self.bounds();
        let llr = self.llr(r);
        if llr <= lo {
            Decision::AcceptH0
        } else if llr >= hi {
            Decision::AcceptH1
        } else {
            Decision::Continue
        }
    }
}

/// A match under an SPRT: its results (up to where it stopped) and where
/// the test stands.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtRun {
    pub summary: Summary,
    pub decision: Decision,
    pub llr: f64,
}

/// Plays a match until the SPRT decides or `cfg.games` are played, handing
/// each game to `each` as [`run_with`] does. The test is checked after
/// every pair of games (each opening with both colours), in game order, so
/// where it stops depends on the seed alone, not on the threads; games are
/// played in batches of a few per thread.
pub fn run_sprt<G: Game>(
    game: &G,
    a: &dyn Bot<G>,
    b: &dyn Bot<G>,
    cfg: &Config,
    sprt: &Sprt,
    progress: &(dyn Fn() + Sync),
    each: &mut dyn FnMut(&GameLog) -> io::Result<()>,
) -> Result<SprtRun, MatchError> {
    let threads = if cfg.threads == 0 { rayon::current_num_threads() } else { cfg.threads };
    let batch = (4 * threads).max(2).next_multiple_of(2);
    let mut tally = Tally::default();
    let mut wdl = Wdl::default();
    let mut decision = Decision::Continue;
    run_until(game, a, b, cfg, batch, progress, &mut |g| {
        each(g)?;
        tally.add(g);
        wdl.add(g.a_score());
        if g.index % 2 == 1 {
            decision = sprt.decide(&wdl);
        }
        Ok(if decision == Decision::Continue { ControlFlow::Continue(()) } else { ControlFlow::Break(()) })
    })?;
    Ok(SprtRun { summary: tally.summary(), decision, llr: sprt.llr(&wdl) })
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
}

impl Wdl {
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    pub fn add(&mut self, score: f64) {
        if score == 1.0 {
            self.wins += 1;
        } else if score == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    fn plus(self, o: Wdl) -> Wdl {
        Wdl { wins: self.wins + o.wins, draws: self.draws + o.draws, losses: self.losses + o.losses }
    }

    fn flipped(self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }
}

/// A mean score of games scored 1, ½, 0 with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Score {
    pub score: f64,
    /// The standard error from the games' own variance.
    pub std_error: f64,
    pub low: f64,
    pub high: f64,
}

impl Score {
    /// From the scores of the games: the mean ± 1.96 standard errors of the
    /// per-game variance. When every game scored the same 1 (or 0) the
    /// variance says nothing; the interval's other end is then the rule of
    /// three (at 95%, fewer than 3/n of games go the other way).
    pub fn of(scores: &[f64]) -> Score {
        let n = scores.len() as f64;
        if scores.is_empty() {
            return Score { score: 0.5, std_error: 0.0, low: 0.0, high: 1.0 };
        }
        let s = scores.iter().sum::<f64>() / n;
        let var = if n > 1.0 { scores.iter().map(|x| (x - s) * (x - s)).sum::<f64>() / (n - 1.0) } else { 0.0 };
        Score::from_moments(s, var, n)
    }
}

impl Score {
    /// From results counted as wins, draws and losses (games scored 1, ½, 0).
    pub fn of_wdl(w: Wdl) -> Score {
        let n = w.games();
        if n == 0 {
            return Score::of(&[]);
        }
        let (nf, s) = (n as f64, (w.wins as f64 + 0.5 * w.draws as f64) / n as f64);
        let sum_sq = (w.wins as f64) * (1.0 - s) * (1.0 - s)
            + (w.draws as f64) * (0.5 - s) * (0.5 - s)
            + (w.losses as f64) * s * s;
        Score::from_moments(s, if n > 1 { sum_sq / (nf - 1.0) } else { 0.0 }, nf)
    }

    fn from_moments(s: f64, var: f64, n: f64) -> Score {
        let se = (var / n).sqrt();
        let (mut low, mut high) = ((s - Z95 * se).max(0.0), (s + Z95 * se).min(1.0));
        if s == 1.0 {
            low = (1.0 - 3.0 / n).max(0.0);
        } else if s == 0.0 {
            high = (3.0 / n).min(1.0);
        }
        // Too few games for the normal approximation: no interval.
        if n < MIN_SAMPLE as f64 && s != 1.0 && s != 0.0 {
            (low, high) = (0.0, 1.0);
        }
        Score { score: s, std_error: se, low, high }
    }
}

/// The Elo difference a score means: `-400 log10(1/s - 1)`, infinite at 0
/// and 1.
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the −0 of an even score into 0.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// The first player's advantage: the first seat's results whoever sat there.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FirstSeat {
    pub results: Wdl,
    pub score: Score,
    pub win_rate: f64,
    /// 95% Wilson interval of the win rate.
    pub win_rate_low: f64,
    pub win_rate_high: f64,
}

/// A match's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub games: usize,
    pub a_wins: usize,
    pub b_wins: usize,
    pub draws: usize,
    /// Draws by the ply limit (counted in `draws`).
    pub ply_limit_draws: usize,
    pub a_first: Wdl,
    pub a_second: Wdl,
    pub b_first: Wdl,
    pub b_second: Wdl,
    /// A's score: (wins + draws / 2) / games.
    pub score: Score,
    /// A's Elo difference over B and its 95% interval (infinite ends are
    /// written as null in JSON).
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub first_seat: FirstSeat,
    pub average_plies: f64,
}

impl Summary {
    pub fn of(logs: &[GameLog]) -> Summary {
        let mut t = Tally::default();
        logs.iter().for_each(|g| t.add(g));
        t.summary()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_scores() {
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.75) - 190.848).abs() < 1e-3);
        assert!((elo(0.25) + 190.848).abs() < 1e-3);
        assert_eq!(elo(1.0), f64::INFINITY);
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn scores_and_intervals() {
        let s = Score::of(&[1.0, 0.0, 0.5, 0.5]);
        assert_eq!(s.score, 0.5);
        // Sample variance 1/6, over 4 games.
        assert!((s.std_error - (1.0f64 / 24.0).sqrt()).abs() < 1e-12);
        let all = Score::of(&[1.0; 30]);
        assert_eq!((all.score, all.high), (1.0, 1.0));
        assert!((all.low - 0.9).abs() < 1e-12);
        let none = Score::of(&[0.0; 30]);
        assert!((none.high - 0.1).abs() < 1e-12);
    }

    #[test]
    fn sprt_bounds_and_ratio() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lo, hi) = t.bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-6 && (hi - 2.944_438_979).abs() < 1e-6);
        // A score halfway between the hypotheses' is no evidence either way.
        let mid = expected_score(5.0);
        assert!((mid - 0.507_195).abs() < 1e-5);
        // 1000 games at 55%: strong evidence for the better hypothesis.
        let r = Wdl { wins: 450, draws: 200, losses: 350 };
        let s = 0.55;
        let var = (450.0 * 0.45f64.powi(2) + 200.0 * 0.05f64.powi(2) + 350.0 * 0.55f64.powi(2)) / 1000.0;
        let (s0, s1) = (0.5, expected_score(10.0));
        let want = 1000.0 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var);
        assert!((t.llr(&r) - want).abs() < 1e-9 && want > hi);
        assert_eq!(t.decide(&r), Decision::AcceptH1);
        assert_eq!(t.decide(&Wdl { wins: 350, draws: 200, losses: 450 }), Decision::AcceptH0);
        assert_eq!(t.decide(&Wdl { wins: 5, draws: 2, losses: 5 }), Decision::Continue);
        assert_eq!(t.llr(&Wdl { wins: 0, draws: 40, losses: 0 }), 0.0);
        // Too few games for a verdict, however one-sided.
        let early = Wdl { wins: 27, draws: 0, losses: 1 };
        assert!(t.llr(&early) > hi);
        assert_eq!(t.decide(&early), Decision::Continue);
        assert_eq!(t.decide(&Wdl { wins: 29, draws: 0, losses: 1 }), Decision::AcceptH1);
        assert_eq!(Sprt::new(5.0, 0.0, 0.05, 0.05).err(), Some(SprtError::Hypotheses { elo0: 5.0, elo1: 0.0 }));
        assert_eq!(Sprt::new(0.0, 5.0, 0.0, 0.05).err(), Some(SprtError::ErrorRate { name: "alpha", p: 0.0 }));
        assert_eq!(Sprt::new(0.0, 5.0, 0.05, 0.5).err(), Some(SprtError::ErrorRate { name: "beta", p: 0.5 }));
    }

    #[test]
    fn an_sprt_match_stops_where_its_results_decide_whatever_the_threads() {
        use crate::merels::{Merels, Rules};
        use crate::players::generic_bot;
        let game = Merels::new(Rules::rota());
        let bot = |s: &str| generic_bot::<Merels>(&s.parse().unwrap()).unwrap();
        let (a, b) = (bot("greedy"), bot("random"));
        let test = Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap();
        let run = |threads: usize| {
            let cfg = Config { games: 2000, seed: 5, max_plies: 300, threads };
            let mut logs = Vec::new();
            let r = run_sprt(&game, a.as_ref(), b.as_ref(), &cfg, &test, &|| {}, &mut |g| {
                logs.push(g.clone());
                Ok(())
            })
            .unwrap();
            (r, logs)
        };
        let (one, logs) = run(1);
        assert_eq!((one.clone(), logs.clone()), run(3));
        assert_ne!(one.decision, Decision::Continue);
        // The decision is the first pair of games at which the ratio leaves
        // the bounds, replayed from the games themselves.
        let mut wdl = Wdl::default();
        for (i, g) in logs.iter().enumerate() {
            assert_eq!(g.index, i);
            wdl.add(g.a_score());
            if i % 2 == 1 && i + 1 < logs.len() {
                assert_eq!(test.decide(&wdl), Decision::Continue, "the test went on after deciding at game {i}");
            }
        }
        assert_eq!(test.decide(&wdl), one.decision);
        assert_eq!(test.llr(&wdl), one.llr);
        assert_eq!(logs.len() % 2, 0);
        assert_eq!(one.summary, Summary::of(&logs));
        // The same games as an ordinary match of that length.
        let cfg = Config { games: logs.len(), seed: 5, max_plies: 300, threads: 2 };
        assert_eq!(logs, super::run(&game, a.as_ref(), b.as_ref(), &cfg, &|| {}).unwrap());
    }

    #[test]
    fn seeds_differ_by_game() {
        let s: Vec<u64> = (0..100).map(|i| game_seed(7, i)).collect();
        let mut d = s.clone();
        d.sort_unstable();
        d.dedup();
        assert_eq!(d.len(), s.len());
        assert_ne!(game_seed(7, 0), game_seed(8, 0));
    }
}
