//! Rules options shared by the merels commands, and position arguments.

use clap::Args;
use engine::merels::{Blocked, PlacementMills, Position, Rules};

use crate::error::{CliError, Result};

/// Rules options of the merels family.
#[derive(Args, Debug, Clone)]
pub struct RuleArgs {
    /// A player with no legal move: loses, passes, or the game is drawn
    #[arg(long, value_name = "RULE", value_parser = ["lose", "pass", "draw"])]
    pub blocked: Option<String>,
    /// Lines closed while placing: count (win on three-men boards, capture
    /// on the others) or forbidden
    #[arg(long, value_name = "RULE", value_parser = ["count", "forbidden"])]
    pub placement_mills: Option<String>,
}

impl RuleArgs {
    /// Applies the options to the defaults of a board and reading.
    pub fn apply(&self, mut rules: Rules) -> Result<Rules> {
        if let Some(b) = &self.blocked {
            rules.blocked = b.parse::<Blocked>()?;
        }
        if let Some(p) = &self.placement_mills {
            rules.placement_mills = p.parse::<PlacementMills>()?;
        }
        Ok(rules)
    }
}

/// Reads a position given as one argument or as its four fields.
pub fn parse_position(parts: &[String], rules: &Rules) -> Result<Position> {
    let text = parts.join(" ");
    let pos: Position = text.parse().map_err(|e: engine::merels::ParsePositionError| CliError(e.to_string()))?;
    rules.check(&pos).map_err(|e| CliError(format!("impossible position '{text}': {e}")))?;
    Ok(pos)
}
