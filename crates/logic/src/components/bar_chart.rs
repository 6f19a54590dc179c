//! The bar chart's geometry: each bar's place in a fixed view box.

/// The drawing's own units: the SVG stretches them to the box's width.
pub const WIDTH: f64 = 300.0;

pub const HEIGHT: f64 = 100.0;

/// The share of each bar's slot left empty, so that neighbouring bars stay apart.
pub const GAP: f64 = 0.2;

/// A bar: its place from the left, its width, its top and its height, in drawing units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BarShape {
    pub x: f64,
    pub width: f64,
    pub y: f64,
    pub height: f64,
}

/// The bars of `values`, side by side across the drawing, the largest full height. A value
/// of zero or less (or with no value above zero at all) is a bar of no height.
pub fn bar_shapes(values: &[f64]) -> Vec<BarShape> {
    let largest = values.iter().copied().fold(0.0, f64::max);
    let slot = WIDTH / values.len().max(1) as f64;
    values
        .iter()
        .enumerate()
        .map(|(i, &value)| {
            let height = if largest > 0.0 {
                HEIGHT * value.max(0.0) / largest
            } else {
                0.0
            };
            BarShape {
                x: i as f64 * slot + slot * GAP / 2.0,
                width: slot * (1.0 - GAP),
                y: HEIGHT - height,
                height,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_share_the_width_and_the_largest_is_full_height() {
        let bars = bar_shapes(&[5.0, 10.0, 0.0]);
        assert_eq!(bars.len(), 3);
        assert_eq!(bars[1].height, HEIGHT);
        assert_eq!(bars[1].y, 0.0);
        assert_eq!(bars[0].height, HEIGHT / 2.0);
        assert_eq!(bars[2].height, 0.0);
        assert_eq!(bars[2].y, HEIGHT);
        // Each in its own third, apart from its neighbours.
        assert_eq!(bars[1].x, 100.0 + 10.0);
        assert_eq!(bars[1].width, 80.0);
        assert!(bars[0].x + bars[0].width < bars[1].x);
    }

    #[test]
    fn nothing_earned_draws_no_height_and_no_division_by_zero() {
        let bars = bar_shapes(&[0.0, 0.0, -1.0]);
        assert!(bars.iter().all(|b| b.height == 0.0 && b.y == HEIGHT));
        assert!(bar_shapes(&[]).is_empty());
    }
}
