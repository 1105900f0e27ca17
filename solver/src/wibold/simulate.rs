//! The Monte Carlo simulator of Wibold's game: many games in parallel,
//! reproducible from one seed whatever the number of threads.
//!
//! The games are cut into fixed chunks of [`CHUNK`] games; chunk `k` draws
//! from its own generator seeded from `(seed, k)`, and every tally is an
//! integer, so the result does not depend on which thread ran which chunk.
//! A roll is one uniform draw among the rules' equally likely outcomes and
//! one table lookup; the loop allocates nothing.

use engine::wibold::{Game, Players, Rules, Scoring, Verdict, VirtueSet};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;

use super::analysis::{LengthLaw, QUANTILES};
use super::stats::{Fit, Histogram, fit, wilson};

/// Games per chunk: each chunk has its own generator.
pub const CHUNK: u64 = 256;

/// SplitMix64's finaliser: spreads nearby seeds over the whole range.
const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of one chunk of a run (and of one stream: runs that share
/// a seed but must not share games use different streams).
pub fn chunk_rng(seed: u64, stream: u64, chunk: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix(mix(mix(seed) ^ stream) ^ chunk))
}

/// One roll's outcome, uniform among the rules' outcomes.
#[inline]
pub fn draw<R: Rng + ?Sized>(rng: &mut R, outcomes: u32) -> usize {
    rng.random_range(0..outcomes) as usize
}

/// Plays one game to the end.
#[inline]
pub fn play<R: Rng + ?Sized>(rules: Rules, players: Players, rng: &mut R) -> Game {
    let mut game = Game::new(rules, players);
    let outcomes = rules.outcomes() as u32;
    while !game.is_over() {
        game.roll(draw(rng, outcomes));
    }
    game
}

/// One roll of a logged game.
#[derive(Clone, Copy, Debug)]
pub struct LoggedRoll {
    /// 1 for the first roll.
    pub number: u32,
    pub seat: usize,
    /// The outcome drawn, an index below [`Rules::outcomes`].
    pub outcome: usize,
    /// What the roller acquired.
    pub gained: VirtueSet,
}

/// The first game of a simulation with this seed, roll by roll.
pub fn play_logged(rules: Rules, players: Players, seed: u64) -> (Game, Vec<LoggedRoll>) {
    let mut rng = chunk_rng(seed, 0, 0);
    let mut game = Game::new(rules, players);
    let outcomes = rules.outcomes() as u32;
    let mut log = Vec::new();
    while !game.is_over() {
        let seat = game.to_roll();
        let outcome = draw(&mut rng, outcomes);
        let gained = game.roll(outcome);
        log.push(LoggedRoll { number: game.rolls(), seat, outcome, gained });
    }
    (game, log)
}

/// What a simulation asks for.
#[derive(Clone, Copy, Debug)]
pub struct SimConfig {
    pub rules: Rules,
    pub players: Players,
    pub games: u64,
    pub seed: u64,
}

/// Integer tallies of a run; chunks add up in any order.
#[derive(Clone, Debug)]
pub struct Tally {
    pub games: u64,
    pub rolls: u64,
    pub lengths: Histogram,
    /// By scoring (virtues, pairs), games won outright by each seat.
    pub wins: [[u64; 8]; 2],
    /// By scoring, games whose win each seat shared.
    pub shared_wins: [[u64; 8]; 2],
    /// By scoring, games with a tie at the top before KARITAS.
    pub tied: [u64; 2],
    /// By scoring, ties KARITAS broke.
    pub karitas_broke: [u64; 2],
    /// By scoring, games whose win stayed shared.
    pub shared: [u64; 2],
    /// Games whose winners differ between the two scorings.
    pub winner_changed: u64,
    /// Sums over games of each seat's virtues, their squares, and pairs.
    pub virtues: [u64; 8],
    pub virtues_sq: [u64; 8],
    pub pairs: [u64; 8],
    /// Games where each seat took KARITAS.
    pub karitas: [u64; 8],
    /// How many players ended with each number of virtues.
    pub virtue_counts: [u64; 57],
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            games: 0,
            rolls: 0,
            lengths: Histogram::default(),
            wins: [[0; 8]; 2],
            shared_wins: [[0; 8]; 2],
            tied: [0; 2],
            karitas_broke: [0; 2],
            shared: [0; 2],
            winner_changed: 0,
            virtues: [0; 8],
            virtues_sq: [0; 8],
            pairs: [0; 8],
            karitas: [0; 8],
            virtue_counts: [0; 57],
        }
    }
}

impl Tally {
    /// Records a finished game.
    pub fn record(&mut self, game: &Game) {
        self.games += 1;
        self.rolls += u64::from(game.rolls());
        self.lengths.add(game.rolls());
        let verdicts: [Verdict; 2] = [game.verdict(Scoring::Virtues), game.verdict(Scoring::Pairs)];
        for (k, v) in verdicts.iter().enumerate() {
            for s in v.winners.iter() {
                if v.shared() {
                    self.shared_wins[k][s] += 1;
                } else {
                    self.wins[k][s] += 1;
                }
            }
            self.tied[k] += u64::from(v.tied);
            self.karitas_broke[k] += u64::from(v.karitas_broke_tie);
            self.shared[k] += u64::from(v.shared());
        }
        self.winner_changed += u64::from(verdicts[0].winners != verdicts[1].winners);
        for s in 0..game.players() {
            let held = game.held(s);
            let n = u64::from(held.len());
            self.virtues[s] += n;
            self.virtues_sq[s] += n * n;
            self.pairs[s] += u64::from(engine::wibold::complementary_pairs(held));
            self.virtue_counts[n as usize] += 1;
        }
        if let Some(s) = game.karitas() {
            self.karitas[s] += 1;
        }
    }

    pub fn merge(mut self, other: Tally) -> Tally {
        self.games += other.games;
        self.rolls += other.rolls;
        self.lengths.merge(&other.lengths);
        for k in 0..2 {
            for s in 0..8 {
                self.wins[k][s] += other.wins[k][s];
                self.shared_wins[k][s] += other.shared_wins[k][s];
            }
            self.tied[k] += other.tied[k];
            self.karitas_broke[k] += other.karitas_broke[k];
            self.shared[k] += other.shared[k];
        }
        self.winner_changed += other.winner_changed;
        for s in 0..8 {
            self.virtues[s] += other.virtues[s];
            self.virtues_sq[s] += other.virtues_sq[s];
            self.pairs[s] += other.pairs[s];
            self.karitas[s] += other.karitas[s];
        }
        for (a, b) in self.virtue_counts.iter_mut().zip(other.virtue_counts) {
            *a += b;
        }
        self
    }
}

/// Runs the games of one chunk.
fn run_chunk(cfg: &SimConfig, chunk: u64, tally: &mut Tally) {
    let mut rng = chunk_rng(cfg.seed, 0, chunk);
    let first = chunk * CHUNK;
    let games = CHUNK.min(cfg.games - first);
    for _ in 0..games {
        let game = play(cfg.rules, cfg.players, &mut rng);
        tally.record(&game);
    }
}

/// Simulates `cfg.games` games on rayon's threads. `progress` hears the
/// number of games finished, chunk by chunk.
pub fn simulate(cfg: &SimConfig, progress: &(dyn Fn(u64) + Sync)) -> Tally {
    let chunks = cfg.games.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .fold(Tally::default, |mut t, c| {
            run_chunk(cfg, c, &mut t);
            progress(CHUNK.min(cfg.games - c * CHUNK));
            t
        })
        .reduce(Tally::default, Tally::merge)
}

/// Rolls only, for benchmarks: plays `games` games on this thread and
/// returns the number of rolls.
pub fn rolls_of(rules: Rules, players: Players, games: u64, seed: u64) -> u64 {
    let mut rng = chunk_rng(seed, 0, 0);
    (0..games).map(|_| u64::from(play(rules, players, &mut rng).rolls())).sum()
}

/// One seat's results.
#[derive(Clone, Debug, Serialize)]
pub struct SeatReport {
    /// 1 for the first to roll.
    pub seat: usize,
    /// The chance to win outright, with its 95% interval.
    pub win: f64,
    pub win_low: f64,
    pub win_high: f64,
    /// The chance to share the win.
    pub shared: f64,
    pub virtues_mean: f64,
    pub virtues_sd: f64,
    pub pairs_mean: f64,
    /// The chance to take KARITAS.
    pub karitas: f64,
}

/// Results under one scoring.
#[derive(Clone, Debug, Serialize)]
pub struct ScoringReport {
    pub scoring: &'static str,
    pub seats: Vec<SeatReport>,
    /// Games tied at the top before KARITAS is counted.
    pub tied: f64,
    /// Games whose tie KARITAS broke.
    pub karitas_broke_tie: f64,
    /// Games whose win stayed shared.
    pub shared: f64,
    /// Seat 1's outright chance minus the other seats' average, with a 95% interval.
    pub first_roller_edge: f64,
    pub first_roller_edge_low: f64,
    pub first_roller_edge_high: f64,
}

/// The simulated length against the exact law.
#[derive(Clone, Debug, Serialize)]
pub struct LengthReport {
    pub mean: f64,
    pub sd: f64,
    pub min: u64,
    pub max: u64,
    pub quantiles: std::collections::BTreeMap<String, u64>,
    pub exact_mean: f64,
    pub exact_sd: f64,
    pub exact_quantiles: std::collections::BTreeMap<String, u64>,
    pub fit: Fit,
}

/// Everything `ludus wibold simulate` reports.
#[derive(Clone, Debug, Serialize)]
pub struct SimReport {
    pub rules: &'static str,
    pub players: usize,
    pub games: u64,
    pub seed: u64,
    pub rolls: u64,
    pub length: LengthReport,
    /// Wibold's scoring, then the bonus for complementary pairs.
    pub scoring: ScoringReport,
    pub pairs_scoring: ScoringReport,
    /// Games whose winners change when pairs score.
    pub winner_changed: f64,
    /// How many players (of all games) ended with each number of virtues.
    pub virtue_counts: Vec<u64>,
}

fn scoring_report(t: &Tally, players: usize, k: usize) -> ScoringReport {
    let g = t.games as f64;
    let seats = (0..players)
        .map(|s| {
            let (lo, hi) = wilson(t.wins[k][s], t.games);
            let m = t.virtues[s] as f64 / g;
            SeatReport {
                seat: s + 1,
                win: t.wins[k][s] as f64 / g,
                win_low: lo,
                win_high: hi,
                shared: t.shared_wins[k][s] as f64 / g,
                virtues_mean: m,
                virtues_sd: ((t.virtues_sq[s] as f64 / g - m * m) * g / (g - 1.0)).max(0.0).sqrt(),
                pairs_mean: t.pairs[s] as f64 / g,
                karitas: t.karitas[s] as f64 / g,
            }
        })
        .collect();
    // D = [seat 1 wins] − mean over the others of [seat k wins]; outright wins
    // exclude each other, so E[D²] = p1 + Σ_k p_k / (N−1)².
    let p: Vec<f64> = (0..players).map(|s| t.wins[k][s] as f64 / g).collect();
    let others: f64 = p[1..].iter().sum::<f64>();
    let r = (players - 1) as f64;
    let d = p[0] - others / r;
    let var = (p[0] + others / (r * r) - d * d).max(0.0) * g / (g - 1.0).max(1.0);
    let half = super::stats::Z95 * (var / g).sqrt();
    ScoringReport {
        scoring: Scoring::ALL[k].name(),
        seats,
        tied: t.tied[k] as f64 / g,
        karitas_broke_tie: t.karitas_broke[k] as f64 / g,
        shared: t.shared[k] as f64 / g,
        first_roller_edge: d,
        first_roller_edge_low: d - half,
        first_roller_edge_high: d + half,
    }
}

/// Turns tallies into the report, against the exact law of the length.
pub fn report(cfg: &SimConfig, t: &Tally, law: &LengthLaw) -> SimReport {
    let players = cfg.players.count();
    let quantiles = QUANTILES.iter().map(|q| (q.to_string(), t.lengths.quantile(q.parse().unwrap()))).collect();
    SimReport {
        rules: cfg.rules.name(),
        players,
        games: t.games,
        seed: cfg.seed,
        rolls: t.rolls,
        length: LengthReport {
            mean: t.lengths.mean(),
            sd: t.lengths.sd(),
            min: t.lengths.min(),
            max: t.lengths.max(),
            quantiles,
            exact_mean: law.mean_f64(),
            exact_sd: law.sd(),
            exact_quantiles: law.quantiles.clone(),
            fit: fit(&t.lengths, &law.curve),
        },
        scoring: scoring_report(t, players, 0),
        pairs_scoring: scoring_report(t, players, 1),
        winner_changed: t.winner_changed as f64 / t.games as f64,
        virtue_counts: t.virtue_counts.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(rules: Rules, games: u64, seed: u64) -> SimConfig {
        SimConfig { rules, players: Players::new(3).unwrap(), games, seed }
    }

    #[test]
    fn the_logged_game_is_the_first_simulated_game() {
        let c = cfg(Rules::Full, 1, 42);
        let t = simulate(&c, &|_| {});
        let (game, log) = play_logged(Rules::Full, c.players, 42);
        assert_eq!(t.lengths.min(), u64::from(game.rolls()));
        assert_eq!(log.len() as u32, game.rolls());
        assert_eq!(log.iter().map(|r| r.gained.len()).sum::<u32>(), 56);
        assert!(log.iter().enumerate().all(|(i, r)| r.seat == i % 3 && r.number as usize == i + 1));
    }

    #[test]
    fn runs_are_reproducible_and_chunks_add_up() {
        let c = cfg(Rules::Simplified, 3 * CHUNK + 17, 9);
        let a = simulate(&c, &|_| {});
        let b = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| simulate(&c, &|_| {}));
        assert_eq!(a.lengths, b.lengths);
        assert_eq!(a.wins, b.wins);
        assert_eq!(a.games, c.games);
        assert_eq!(a.virtue_counts.iter().sum::<u64>(), 3 * c.games);
        // Every game distributes all 56 virtues.
        assert_eq!(a.virtues.iter().sum::<u64>(), 56 * c.games);
        let other = simulate(&SimConfig { seed: 10, ..c }, &|_| {});
        assert_ne!(a.lengths, other.lengths);
    }

    #[test]
    fn every_game_has_a_winner() {
        let c = cfg(Rules::Full, 300, 3);
        let t = simulate(&c, &|_| {});
        for k in 0..2 {
            let outright: u64 = t.wins[k].iter().sum();
            assert_eq!(outright + t.shared[k], t.games);
            assert!(t.karitas_broke[k] <= t.tied[k]);
        }
        assert_eq!(t.karitas.iter().sum::<u64>(), t.games);
    }
}
