//! The one small interface every game of ludus offers the players and the
//! arena: states, whose turn it is (a player's or chance's), the legal
//! actions, chance outcomes with their probabilities, applying an action, the
//! result, and two hints for simple players (a heuristic and the men an
//! action takes).
//!
//! Players are numbered 0 and 1; player 0 is the one who moves first from
//! [`Game::start`].

use std::fmt::Debug;

/// Who acts in a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Player 0 or 1 chooses an action.
    Player(usize),
    /// Chance draws one of [`Game::chances`] (dice).
    Chance,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Player 0 or 1 won.
    Win(usize),
    Draw,
}

impl Outcome {
    /// The score of `player`: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn score(self, player: usize) -> f64 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// A game as the players see it.
pub trait Game: Send + Sync {
    type State: Clone + Send + Sync;
    /// A player's action or a chance outcome.
    type Action: Copy + PartialEq + Debug + Send + Sync;

    /// The game's short name (`rota`, `merels`, `rithmo`).
    fn name(&self) -> &'static str;

    /// The start position; player 0 moves first.
    fn start(&self) -> Self::State;

    /// Who acts now (meaningless once [`Game::result`] is known).
    fn turn(&self, st: &Self::State) -> Turn;

    /// The legal actions of the player to move; empty once the game is over.
    fn actions(&self, st: &Self::State) -> Vec<Self::Action>;

    /// At a chance turn, the outcomes and their probabilities (summing to 1).
    fn chances(&self, st: &Self::State) -> Vec<(Self::Action, f64)>;

    /// The state after a legal action or chance outcome.
    fn apply(&self, st: &Self::State, a: Self::Action) -> Self::State;

    /// The result, once the game is over.
    fn result(&self, st: &Self::State) -> Option<Outcome>;

    /// How good the state looks for `player`, in [-1, 1]; cheap and rough.
    fn heuristic(&self, st: &Self::State, player: usize) -> f64;

    /// What an action takes at once (men captured), for greedy players.
    fn gain(&self, st: &Self::State, a: Self::Action) -> f64;

    /// An action in the game's notation.
    fn action_text(&self, st: &Self::State, a: Self::Action) -> String;
}
