//! Figures for `--plot FILE`: SVG or PNG, drawn with plotters in pure Rust
//! (the font comes from the `ttf-noto-sans` crate, so nothing is needed
//! from the system), written atomically.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use solver::wibold::Curve;
use solver::wibold::stats::Histogram;

use crate::error::{CliError, Result};

/// The image formats `--plot` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

/// Where a figure goes, checked before any work is done.
#[derive(Clone, Debug)]
pub struct PlotTarget {
    pub path: PathBuf,
    pub format: Format,
}

impl PlotTarget {
    /// Accepts a path ending in `.svg` or `.png` in an existing directory.
    pub fn parse(path: &Path) -> Result<PlotTarget> {
        let shown = path.display();
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let format = match ext.as_deref() {
            Some("svg") => Format::Svg,
            Some("png") => Format::Png,
            _ => return Err(CliError(format!("cannot draw '{shown}': --plot takes a file ending in .svg or .png"))),
        };
        if path.file_name().is_none() {
            return Err(CliError(format!("cannot draw '{shown}': it names no file")));
        }
        let dir = parent(path);
        if !dir.is_dir() {
            return Err(CliError(format!("cannot write '{shown}': the directory '{}' does not exist", dir.display())));
        }
        Ok(PlotTarget { path: path.to_path_buf(), format })
    }
}

fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The histogram of simulated game lengths with the exact law over it (the
/// article's Figures 3 and 5).
pub struct LengthPanel<'a> {
    pub title: String,
    pub lengths: &'a Histogram,
    pub law: &'a Curve,
}

/// Virtues owned against rolls in one game (the article's Figures 2 and 4).
pub struct GamePanel {
    pub title: String,
    /// Virtues owned after each roll; entry 0 is before the first roll.
    pub owned: Vec<u32>,
}

const WIDTH: u32 = 1200;
const ROW_HEIGHT: u32 = 420;
const FONT: &str = "sans-serif";
const LIGHT: RGBColor = RGBColor(238, 238, 238);

/// Registers the built-in font as plotters' sans-serif. Plotters is built
/// with its pure-Rust text renderer, which draws no text without it.
fn register_font() -> Result<()> {
    static LOADED: OnceLock<bool> = OnceLock::new();
    let ok =
        *LOADED.get_or_init(|| plotters::style::register_font(FONT, FontStyle::Normal, ttf_noto_sans::REGULAR).is_ok());
    if ok { Ok(()) } else { Err(CliError("the built-in font could not be loaded".into())) }
}

/// Draws one row per game kind, lengths on the left and one game on the
/// right, and writes the file.
pub fn draw(target: &PlotTarget, rows: &[(LengthPanel, GamePanel)]) -> Result<()> {
    register_font()?;
    let size = (WIDTH, ROW_HEIGHT * rows.len() as u32);
    let bytes = match target.format {
        Format::Svg => {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                draw_rows(&root, rows)?;
                root.present().map_err(plot_error)?;
            }
            svg.into_bytes()
        }
        Format::Png => {
            let mut pixels = vec![0u8; (size.0 * size.1 * 3) as usize];
            {
                let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
                draw_rows(&root, rows)?;
                root.present().map_err(plot_error)?;
            }
            encode_png(&pixels, size)?
        }
    };
    Ok(engine::file::write_atomic(&target.path, &bytes)?)
}

fn plot_error<E: std::fmt::Display>(e: E) -> CliError {
    CliError(format!("drawing the figure failed: {e}"))
}

fn encode_png(pixels: &[u8], (w, h): (u32, u32)) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(plot_error)?;
        writer.write_image_data(pixels).map_err(plot_error)?;
    }
    Ok(out)
}

fn draw_rows<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, rows: &[(LengthPanel, GamePanel)]) -> Result<()> {
    root.fill(&WHITE).map_err(plot_error)?;
    let areas = root.split_evenly((rows.len(), 2));
    for (i, (lengths, game)) in rows.iter().enumerate() {
        draw_lengths(&areas[2 * i], lengths)?;
        draw_game(&areas[2 * i + 1], game)?;
    }
    Ok(())
}

/// A round bin width giving about `bins` bins up to `max`.
fn bin_width(max: u64, bins: u64) -> u64 {
    let raw = (max / bins).max(1);
    let mut unit = 1;
    loop {
        for step in [1, 2, 5] {
            if step * unit >= raw {
                return step * unit;
            }
        }
        unit *= 10;
    }
}

fn draw_lengths<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &LengthPanel) -> Result<()> {
    // The axis ends at the exact 99.9th percentile; longer games are rare.
    let end = (0..p.law.len()).find(|&n| p.law.cdf(n) >= 0.999).unwrap_or(p.law.len());
    let width = bin_width(end, 100);
    let bins = end.div_ceil(width);
    let games = p.lengths.total().max(1) as f64;
    let mut simulated = Vec::with_capacity(bins as usize);
    let mut exact = Vec::with_capacity(bins as usize);
    for b in 0..bins {
        let (lo, hi) = (b * width, (b + 1) * width - 1);
        let count: u64 = (lo..=hi).map(|n| p.lengths.count(n)).sum();
        simulated.push((lo, hi, count as f64 / games));
        exact.push(((lo + hi) as f64 / 2.0, p.law.between(lo, hi)));
    }
    let top = simulated.iter().map(|s| s.2).chain(exact.iter().map(|e| e.1)).fold(0.0, f64::max) * 1.12;
    let mut chart = ChartBuilder::on(area)
        .caption(&p.title, (FONT, 20))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..(bins * width) as f64, 0f64..top.max(1e-9))
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(LIGHT)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc("rolls to distribute all 56 virtues")
        .y_desc(format!("fraction of games per {width} rolls"))
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .draw()
        .map_err(plot_error)?;
    let fill = RGBColor(70, 110, 180).mix(0.55).filled();
    chart
        .draw_series(
            simulated.iter().map(|&(lo, hi, f)| Rectangle::new([(lo as f64, 0.0), ((hi + 1) as f64, f)], fill)),
        )
        .map_err(plot_error)?
        .label("simulated")
        .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 18, y + 6)], fill));
    let line = RGBColor(200, 30, 30).stroke_width(3);
    chart
        .draw_series(LineSeries::new(exact.iter().copied(), line))
        .map_err(plot_error)?
        .label("exact")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], line));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FONT, 15))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(plot_error)?;
    Ok(())
}

fn draw_game<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, p: &GamePanel) -> Result<()> {
    let rolls = p.owned.len().saturating_sub(1).max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(&p.title, (FONT, 20))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(48)
        .build_cartesian_2d(0f64..rolls * 1.01, 0f64..58f64)
        .map_err(plot_error)?;
    chart
        .configure_mesh()
        .light_line_style(LIGHT)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .x_desc("roll")
        .y_desc("virtues owned")
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .draw()
        .map_err(plot_error)?;
    // A step line: the count holds until the roll that raises it.
    let mut steps = Vec::with_capacity(2 * p.owned.len());
    for (r, w) in p.owned.windows(2).enumerate() {
        steps.push((r as f64, f64::from(w[0])));
        if w[1] != w[0] {
            steps.push(((r + 1) as f64, f64::from(w[0])));
        }
    }
    if let Some(&last) = p.owned.last() {
        steps.push((rolls, f64::from(last)));
    }
    chart.draw_series(LineSeries::new(steps, RGBColor(30, 120, 60).stroke_width(2))).map_err(plot_error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bin_widths_are_round() {
        assert_eq!(bin_width(7000, 60), 200);
        assert_eq!(bin_width(6500, 100), 100);
        assert_eq!(bin_width(1700, 60), 50);
        assert_eq!(bin_width(30, 60), 1);
        assert_eq!(bin_width(600, 60), 10);
    }

    #[test]
    fn targets_need_a_known_extension_and_an_existing_directory() {
        assert_eq!(PlotTarget::parse(Path::new("a.SVG")).unwrap().format, Format::Svg);
        assert_eq!(PlotTarget::parse(Path::new("a.png")).unwrap().format, Format::Png);
        assert!(PlotTarget::parse(Path::new("a.jpg")).unwrap_err().0.contains(".svg or .png"));
        assert!(PlotTarget::parse(Path::new("a")).is_err());
        assert!(PlotTarget::parse(Path::new("/no/such/dir/a.svg")).unwrap_err().0.contains("does not exist"));
    }
}
