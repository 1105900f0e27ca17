//! Strategies of the choice variant against each other.
//!
//! In Wibold's own rules every player is greedy: a throw names at most one
//! virtue and the dice leave no choice. The choice variant (a modern
//! extension) lets a throw claim any unowned virtue it spells, and there the
//! strategies of `engine::wibold::strategy` differ. A match plays a lineup
//! with the seats rotated from game to game, so no strategy keeps the first
//! roll.

use engine::wibold::strategy::play_choice;
use engine::wibold::{Players, PlayersError, Scoring, Strategy};
use rayon::prelude::*;
use serde::Serialize;

use super::simulate::{CHUNK, chunk_rng};
use super::stats::{Histogram, mean_interval, wilson};

/// A share of a win in units of 1/840, so that a win shared by any number of
/// players up to 8 is a whole number (840 = lcm(1..8)).
const SHARE: u64 = 840;

/// Integer tallies of a match, by lineup entry.
#[derive(Clone, Debug, Default)]
struct Tally {
    games: u64,
    tied: u64,
    karitas_broke: u64,
    lengths: Histogram,
    share: [u64; 8],
    share_sq: [u128; 8],
    outright: [u64; 8],
    virtues: [u64; 8],
    karitas: [u64; 8],
}

impl Tally {
    fn merge(mut self, o: Tally) -> Tally {
        self.games += o.games;
        self.tied += o.tied;
        self.karitas_broke += o.karitas_broke;
        self.lengths.merge(&o.lengths);
        for e in 0..8 {
            self.share[e] += o.share[e];
            self.share_sq[e] += o.share_sq[e];
            self.outright[e] += o.outright[e];
            self.virtues[e] += o.virtues[e];
            self.karitas[e] += o.karitas[e];
        }
        self
    }
}

/// One lineup entry's results.
#[derive(Clone, Debug, Serialize)]
pub struct EntryReport {
    pub strategy: String,
    /// Its expected share of the win (a win shared by k counts 1/k), with a 95% interval.
    pub win_share: f64,
    pub win_share_low: f64,
    pub win_share_high: f64,
    /// Its chance to win outright, with a 95% interval.
    pub win: f64,
    pub win_low: f64,
    pub win_high: f64,
    pub virtues_mean: f64,
    /// The chance that it takes KARITAS, which breaks ties.
    pub karitas: f64,
}

/// A match's results.
#[derive(Clone, Debug, Serialize)]
pub struct MatchReport {
    pub lineup: Vec<String>,
    pub scoring: &'static str,
    pub games: u64,
    /// Rolls per game in the choice variant.
    pub length_mean: f64,
    pub length_sd: f64,
    /// Games tied at the top before KARITAS is counted.
    pub tied: f64,
    /// Games whose tie KARITAS broke.
    pub karitas_broke_tie: f64,
    pub entries: Vec<EntryReport>,
}

/// Plays `games` games of the choice variant between the strategies of
/// `lineup` (2 to 8), `scoring` and Wibold's tie-break deciding each game.
/// Game `g` seats entry `(s + g) mod N` at seat `s`. `stream` separates
/// matches that share a seed; `progress` hears games finished.
pub fn play_match(
    lineup: &[Strategy],
    games: u64,
    seed: u64,
    stream: u64,
    scoring: Scoring,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<MatchReport, PlayersError> {
    let n = Players::new(lineup.len())?.count();
    let chunks = games.div_ceil(CHUNK);
    let t = (0..chunks)
        .into_par_iter()
        .fold(Tally::default, |mut t, c| {
            let mut rng = chunk_rng(seed, stream + 1, c);
            let first = c * CHUNK;
            let count = CHUNK.min(games - first);
            let mut seated = [Strategy::Random; 8];
            for g in first..first + count {
                let rot = (g % n as u64) as usize;
                let entry = |seat: usize| (seat + rot) % n;
                for (s, slot) in seated.iter_mut().enumerate().take(n) {
                    *slot = lineup[entry(s)];
                }
                let game = play_choice(&seated[..n], &mut rng);
                t.games += 1;
                t.lengths.add(game.rolls());
                let v = game.verdict(scoring);
                t.tied += u64::from(v.tied);
                t.karitas_broke += u64::from(v.karitas_broke_tie);
                let k = u64::from(v.winners.len());
                for s in v.winners.iter() {
                    let e = entry(s);
                    let share = SHARE / k;
                    t.share[e] += share;
                    t.share_sq[e] += u128::from(share * share);
                    t.outright[e] += u64::from(k == 1);
                }
                for s in 0..n {
                    t.virtues[entry(s)] += u64::from(game.held(s).len());
                }
                if let Some(s) = game.karitas() {
                    t.karitas[entry(s)] += 1;
                }
            }
            progress(count);
            t
        })
        .reduce(Tally::default, Tally::merge);
    let g = t.games as f64;
    let entries = (0..n)
        .map(|e| {
            let unit = SHARE as f64;
            let (m, lo, hi) = mean_interval(t.share[e] as f64 / unit, t.share_sq[e] as f64 / (unit * unit), t.games);
            let (wlo, whi) = wilson(t.outright[e], t.games);
            EntryReport {
                strategy: lineup[e].to_string(),
                win_share: m,
                win_share_low: lo,
                win_share_high: hi,
                win: t.outright[e] as f64 / g,
                win_low: wlo,
                win_high: whi,
                virtues_mean: t.virtues[e] as f64 / g,
                karitas: t.karitas[e] as f64 / g,
            }
        })
        .collect();
    Ok(MatchReport {
        lineup: lineup.iter().map(|s| s.to_string()).collect(),
        scoring: scoring.name(),
        games: t.games,
        length_mean: t.lengths.mean(),
        length_sd: t.lengths.sd(),
        tied: t.tied as f64 / g,
        karitas_broke_tie: t.karitas_broke as f64 / g,
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_add_up_to_one_per_game_and_runs_repeat() {
        let lineup = [Strategy::GreedyRarest, Strategy::Random, Strategy::Complement];
        let r = play_match(&lineup, 300, 5, 0, Scoring::Virtues, &|_| {}).unwrap();
        let total: f64 = r.entries.iter().map(|e| e.win_share).sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        let virtues: f64 = r.entries.iter().map(|e| e.virtues_mean).sum();
        assert!((virtues - 56.0).abs() < 1e-9);
        let karitas: f64 = r.entries.iter().map(|e| e.karitas).sum();
        assert!((karitas - 1.0).abs() < 1e-9);
        let again = play_match(&lineup, 300, 5, 0, Scoring::Virtues, &|_| {}).unwrap();
        assert_eq!(r.entries[0].win_share, again.entries[0].win_share);
        assert!(play_match(&[Strategy::Random], 10, 5, 0, Scoring::Virtues, &|_| {}).is_err());
    }

    #[test]
    fn identical_players_share_evenly() {
        // Four random players, seats rotated: each entry near 1/4 (within
        // 3.5 standard errors, so that a fixed seed is no gamble).
        let r = play_match(&[Strategy::Random; 4], 2000, 11, 0, Scoring::Pairs, &|_| {}).unwrap();
        for e in &r.entries {
            let se = (e.win_share_high - e.win_share_low) / (2.0 * crate::wibold::stats::Z95);
            assert!((e.win_share - 0.25).abs() < 3.5 * se, "{e:?}");
        }
    }
}
