use thiserror::Error;

/// Why a shape could not be built. Only truly invalid input is refused: degenerate but
/// finite point sets are shapes (docs/algorithms.md, "Hulls: thin, huge and far-away
/// shapes").
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ShapeError {
    #[error("{shape}: {parameter} must be {requirement}, got {value:?}")]
    BadParameter {
        shape: &'static str,
        parameter: &'static str,
        requirement: &'static str,
        value: f64,
    },
    #[error("a polytope needs at least one point, got none")]
    EmptyPointSet,
    #[error("point {index} has a non-finite coordinate ({x}, {y}, {z})")]
    NonFinitePoint {
        index: usize,
        x: f64,
        y: f64,
        z: f64,
    },
    #[error(
        "point {index} ({x:e}, {y:e}, {z:e}) is beyond ±{limit:e}: \
         lengths that large overflow f64 arithmetic in GJK"
    )]
    CoordinateTooLarge {
        index: usize,
        x: f64,
        y: f64,
        z: f64,
        limit: f64,
    },
}

/// Checks `value` against a requirement; used by every shape constructor. Sizes are
/// held to the points' limit ([`super::MAX_COORDINATE`]): a box 1e308 wide overflows
/// the same arithmetic (and panicked inside parry's EPA in the cross-check).
pub(crate) fn require(
    shape: &'static str,
    parameter: &'static str,
    value: f64,
    requirement: &'static str,
    ok: impl Fn(f64) -> bool,
) -> Result<(), ShapeError> {
    if value.is_finite() && value.abs() <= super::MAX_COORDINATE && ok(value) {
        Ok(())
    } else {
        Err(ShapeError::BadParameter {
            shape,
            parameter,
            requirement,
            value,
        })
    }
}

pub(crate) fn require_non_negative(
    shape: &'static str,
    parameter: &'static str,
    value: f64,
) -> Result<(), ShapeError> {
    require(shape, parameter, value, "≥ 0 and at most 1e75", |v| {
        v >= 0.0
    })
}

pub(crate) fn require_positive(
    shape: &'static str,
    parameter: &'static str,
    value: f64,
) -> Result<(), ShapeError> {
    require(shape, parameter, value, "> 0 and at most 1e75", |v| v > 0.0)
}
