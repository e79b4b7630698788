//! A body: constraints with their placement, a bounding box, and the conversions from
//! the shape kinds.

use glam::{DMat3, DVec3};
use thiserror::Error;

use super::primitive::{Eval, Primitive};
use crate::pose::RelativePose;
use crate::shape::{halfspace_vertices, AffineDimension, Polytope, Shape, SupportMap};

/// Why a body cannot be built.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ImplicitError {
    #[error("{0}")]
    Invalid(String),
    #[error("unbounded: {0}")]
    Unbounded(String),
    #[error(
        "empty: no point satisfies every constraint (the most violated is {0:.3e} above 0 at best)"
    )]
    Empty(f64),
    #[error("a {0} has no interior (no implicit form with a volume)")]
    NoInterior(String),
}

/// One constraint: `primitive(map · (x − origin)) ≤ 0`.
#[derive(Clone, Debug, PartialEq)]
pub struct Constraint {
    pub primitive: Primitive,
    pub map: DMat3,
    pub origin: DVec3,
}

/// Half-spaces `n·x ≤ d` (`[n1, n2, n3, d]`, any normal length) placed by a rigid pose;
/// they need not bound anything alone (an intersection's planes).
pub fn half_space_constraints(
    planes: &[[f64; 4]],
    rotation: DMat3,
    translation: DVec3,
) -> Result<Vec<Constraint>, ImplicitError> {
    planes
        .iter()
        .map(|p| {
            let n = DVec3::new(p[0], p[1], p[2]);
            let length = n.length();
            if !(length > 0.0 && length.is_finite() && p[3].is_finite()) {
                return Err(ImplicitError::Invalid(format!(
                    "a half-space needs a finite, non-zero normal and offset, got {p:?}"
                )));
            }
            Ok(Constraint::placed(
                Primitive::HalfSpace {
                    normal: n / length,
                    offset: p[3] / length,
                },
                rotation,
                translation,
            ))
        })
        .collect()
}

impl Constraint {
    /// A primitive placed by a rigid pose (`x = R u + t`).
    pub fn placed(primitive: Primitive, rotation: DMat3, translation: DVec3) -> Self {
        Self {
            primitive,
            map: rotation.transpose(),
            origin: translation,
        }
    }

    pub fn value(&self, x: DVec3) -> f64 {
        self.primitive.value(self.map * (x - self.origin))
    }

    /// The unsmoothed value (see `primitive.rs`).
    pub fn exact_value(&self, x: DVec3) -> f64 {
        self.primitive.exact_value(self.map * (x - self.origin))
    }

    /// Value, gradient and Hessian in the body's frame.
    pub fn eval(&self, x: DVec3) -> Eval {
        let e = self.primitive.eval(self.map * (x - self.origin));
        let mt = self.map.transpose();
        let hessian = if let Primitive::HalfSpace { .. } = self.primitive {
            e.hessian
        } else {
            mt * e.hessian * self.map
        };
        Eval {
            value: e.value,
            gradient: mt * e.gradient,
            hessian,
        }
    }
}

/// Constraints on their way to a body, with a box known to hold their intersection
/// (the member shapes' own boxes; infinite where no member has one).
#[derive(Clone, Debug)]
pub struct BodyParts {
    pub constraints: Vec<Constraint>,
    pub lower: DVec3,
    pub upper: DVec3,
}

impl BodyParts {
    /// Constraints with no box known.
    pub fn unboxed(constraints: Vec<Constraint>) -> Self {
        Self {
            constraints,
            lower: DVec3::splat(f64::NEG_INFINITY),
            upper: DVec3::splat(f64::INFINITY),
        }
    }

    /// A whole body's constraints and box (a shape kind's implicit form, placed).
    pub fn of_body(body: &ImplicitBody) -> Self {
        Self {
            constraints: body.constraints.clone(),
            lower: body.lower,
            upper: body.upper,
        }
    }

    /// The intersection with `other`: both sets of constraints, the boxes' overlap.
    pub fn and(mut self, other: BodyParts) -> Self {
        self.constraints.extend(other.constraints);
        self.lower = self.lower.max(other.lower);
        self.upper = self.upper.min(other.upper);
        self
    }

    pub fn into_body(self) -> Result<ImplicitBody, ImplicitError> {
        ImplicitBody::within(self.constraints, (self.lower, self.upper))
    }
}

/// A convex body: the intersection of its constraints, with a box that holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct ImplicitBody {
    constraints: Vec<Constraint>,
    lower: DVec3,
    upper: DVec3,
    /// A point strictly inside, once known (queries then skip phase 1).
    inside: Option<DVec3>,
}

impl ImplicitBody {
    /// The intersection of `constraints`; refused when no box bounds it. (Emptiness is
    /// found by the barrier method's phase 1: [`super::interior_point`].)
    pub fn new(constraints: Vec<Constraint>) -> Result<Self, ImplicitError> {
        let everywhere = (DVec3::splat(f64::NEG_INFINITY), DVec3::splat(f64::INFINITY));
        Self::within(constraints, everywhere)
    }

    /// The intersection of `constraints`, known to lie in the box `(lower, upper)`: the
    /// boxes of the shapes the constraints came from. Boundedness is the body's, not a
    /// constraint's: a cone is its side and base together, which neither bounds alone,
    /// and its own box says what they bound.
    pub fn within(
        constraints: Vec<Constraint>,
        (lower, upper): (DVec3, DVec3),
    ) -> Result<Self, ImplicitError> {
        if constraints.is_empty() {
            return Err(ImplicitError::Invalid(
                "a body needs at least one constraint".into(),
            ));
        }
        for c in &constraints {
            validate(c)?;
        }
        let (lower, upper) = bounds(&constraints, lower, upper)?;
        Ok(Self {
            constraints,
            lower,
            upper,
            inside: None,
        })
    }

    /// A point strictly inside the body, when one is known.
    pub fn interior(&self) -> Option<DVec3> {
        self.inside
    }

    /// Records `p` as the body's interior point if it is strictly inside (unsmoothed).
    pub fn with_interior(mut self, p: DVec3) -> Self {
        if self.exact_violation(p) < 0.0 {
            self.inside = Some(p);
        }
        self
    }

    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// The box `(lower, upper)` that holds the body (the body's frame).
    pub fn bounds(&self) -> (DVec3, DVec3) {
        (self.lower, self.upper)
    }

    /// The largest constraint value at `x` as the solver sees it (smoothed; ≤ 0 inside).
    pub fn max_violation(&self, x: DVec3) -> f64 {
        self.constraints
            .iter()
            .map(|c| c.value(x))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The largest unsmoothed constraint value at `x`: `x` is in the body iff ≤ 0.
    pub fn exact_violation(&self, x: DVec3) -> f64 {
        self.constraints
            .iter()
            .map(|c| c.exact_value(x))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The same body moved by `pose` (its points `x` go to `R x + t`).
    pub fn moved(&self, pose: RelativePose) -> Self {
        let constraints = self
            .constraints
            .iter()
            .map(|c| Constraint {
                primitive: c.primitive.clone(),
                map: c.map * pose.rotation.transpose(),
                origin: pose.rotation * c.origin + pose.translation,
            })
            .collect();
        let corners = box_corners(self.lower, self.upper).map(|p| pose.transform_point(p));
        let (lower, upper) = corners.iter().fold(
            (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        Self {
            constraints,
            lower,
            upper,
            inside: self.inside.map(|p| pose.transform_point(p)),
        }
    }

    /// The implicit form of a shape kind with a volume. Points, flat polytopes and
    /// rounded (dilated) shapes have none here.
    pub fn of_shape(shape: &Shape) -> Result<Self, ImplicitError> {
        if let Shape::Implicit(i) = shape {
            return Ok(i.body().clone());
        }
        let constraints = Self::constraints_of(shape)?;
        // The shape's own box bounds the body, and is exact where the constraints' boxes
        // are not (a cylinder's side is an unbounded quadric). It also spares the
        // half-spaces' vertex enumeration, cubic in their number (a mesh hull has
        // thousands).
        let aabb = shape.local_aabb();
        for c in &constraints {
            validate(c)?;
        }
        let (lo, hi) = primitive_bounds(&constraints);
        let body = Self {
            constraints,
            lower: lo.max(aabb.min),
            upper: hi.min(aabb.max),
            inside: None,
        };
        // Every solid kind holds its centre (a polytope: its vertices' mean).
        let centre = match shape {
            Shape::Polytope(p) => {
                p.vertices().iter().fold(DVec3::ZERO, |s, v| s + *v) / p.vertices().len() as f64
            }
            _ => DVec3::ZERO,
        };
        Ok(body.with_interior(centre))
    }

    fn constraints_of(shape: &Shape) -> Result<Vec<Constraint>, ImplicitError> {
        let at_origin = |p: Primitive| Constraint::placed(p, DMat3::IDENTITY, DVec3::ZERO);
        let half_space =
            |normal: DVec3, offset: f64| at_origin(Primitive::HalfSpace { normal, offset });
        let constraints = match shape {
            Shape::Sphere(s) => vec![at_origin(ellipsoid(DVec3::splat(s.radius())))],
            Shape::Ellipsoid(e) => vec![at_origin(ellipsoid(e.radii()))],
            Shape::Cuboid(c) => {
                let h = c.half_extents();
                (0..3)
                    .flat_map(|i| {
                        let mut n = DVec3::ZERO;
                        n[i] = 1.0;
                        [half_space(n, h[i]), half_space(-n, h[i])]
                    })
                    .collect()
            }
            Shape::Capsule(c) => vec![at_origin(Primitive::Capsule {
                radius: c.radius(),
                half_height: c.half_height(),
            })],
            Shape::Cylinder(c) => {
                let r2 = c.radius() * c.radius();
                vec![
                    at_origin(Primitive::Quadric {
                        q: DMat3::from_diagonal(DVec3::new(1.0 / r2, 0.0, 1.0 / r2)),
                        b: DVec3::ZERO,
                        c: -1.0,
                    }),
                    half_space(DVec3::Y, c.half_height()),
                    half_space(-DVec3::Y, c.half_height()),
                ]
            }
            Shape::Cone(c) => vec![
                at_origin(Primitive::ConeSide {
                    radius: c.radius(),
                    half_height: c.half_height(),
                }),
                half_space(-DVec3::Y, c.half_height()),
                // The apex bound is implied; it makes the box exact.
                half_space(DVec3::Y, c.half_height()),
            ],
            // At n = 1 the superellipsoid is an octahedron: its eight planes, exactly
            // (no smoothed corners for Newton to crawl along).
            Shape::Superellipsoid(s) if s.exponent() == 1.0 => {
                let r = s.radii();
                let normal = DVec3::ONE / r;
                (0..8)
                    .map(|k| {
                        let sign = DVec3::new(
                            if k & 1 == 0 { 1.0 } else { -1.0 },
                            if k & 2 == 0 { 1.0 } else { -1.0 },
                            if k & 4 == 0 { 1.0 } else { -1.0 },
                        );
                        let n = normal * sign;
                        half_space(n / n.length(), 1.0 / n.length())
                    })
                    .collect()
            }
            Shape::Superellipsoid(s) => vec![at_origin(Primitive::Superquadric {
                radii: s.radii(),
                exponents: DVec3::splat(s.exponent()),
            })],
            Shape::Polytope(p) => {
                if p.dimension() != AffineDimension::Solid {
                    return Err(ImplicitError::NoInterior("flat polytope".into()));
                }
                polytope_planes(p)
                    .into_iter()
                    .map(|(n, d)| half_space(n, d))
                    .collect()
            }
            Shape::Implicit(i) => return Ok(i.body().constraints().to_vec()),
            Shape::Point(_) => return Err(ImplicitError::NoInterior("point".into())),
            Shape::Union(_) => {
                return Err(ImplicitError::NoInterior(
                    "hull of a union (no implicit form here)".into(),
                ))
            }
            Shape::Dilated(_) => {
                return Err(ImplicitError::NoInterior(
                    "rounded shape (no implicit form here)".into(),
                ))
            }
            Shape::Coal(_) => {
                return Err(ImplicitError::NoInterior(
                    "Coal's core of a shape (a solver's view, not a scene's shape)".into(),
                ))
            }
        };
        Ok(constraints)
    }

    /// Half-spaces `n·x ≤ d` (the problem files' `halfspaces`), refused when unbounded
    /// or empty.
    pub fn of_halfspaces(planes: &[[f64; 4]]) -> Result<Self, ImplicitError> {
        halfspace_vertices(planes).map_err(ImplicitError::Invalid)?;
        let constraints = planes
            .iter()
            .map(|p| {
                let n = DVec3::new(p[0], p[1], p[2]);
                let length = n.length();
                Constraint::placed(
                    Primitive::HalfSpace {
                        normal: n / length,
                        offset: p[3] / length,
                    },
                    DMat3::IDENTITY,
                    DVec3::ZERO,
                )
            })
            .collect();
        Self::new(constraints)
    }
}

fn ellipsoid(radii: DVec3) -> Primitive {
    Primitive::Quadric {
        q: DMat3::from_diagonal(DVec3::ONE / (radii * radii)),
        b: DVec3::ZERO,
        c: -1.0,
    }
}

fn validate(c: &Constraint) -> Result<(), ImplicitError> {
    let bad = |why: String| Err(ImplicitError::Invalid(why));
    if !c.map.is_finite() || !c.origin.is_finite() || c.map.determinant().abs() < 1e-300 {
        return bad("a constraint's placement is not finite or not invertible".into());
    }
    match &c.primitive {
        Primitive::HalfSpace { normal, offset } => {
            if !normal.is_finite() || !offset.is_finite() || normal.length() < 1e-300 {
                return bad("a half-space needs a finite, non-zero normal".into());
            }
        }
        Primitive::Quadric { q, b, c } => {
            let symmetric =
                (*q - q.transpose()).abs().to_cols_array().iter().all(|v| {
                    *v < 1e-12 * q.abs().to_cols_array().iter().cloned().fold(1.0, f64::max)
                });
            if !q.is_finite() || !b.is_finite() || !c.is_finite() || !symmetric {
                return bad("a quadric needs a finite symmetric matrix".into());
            }
        }
        Primitive::Superquadric { radii, exponents } => {
            if !(radii.is_finite() && radii.min_element() > 0.0) {
                return bad(format!("superquadric radii must be positive, got {radii}"));
            }
            if !(exponents.is_finite() && exponents.min_element() >= 1.0) {
                return bad(format!(
                    "superquadric exponents must be ≥ 1, got {exponents}"
                ));
            }
        }
        Primitive::Hyperquadric { terms } => {
            for t in terms {
                if !(t.normal.is_finite() && t.offset.is_finite()) {
                    return bad("a hyperquadric term is not finite".into());
                }
                if !(t.exponent.is_finite() && t.exponent >= 1.0) {
                    return bad(format!(
                        "hyperquadric exponents must be ≥ 1, got {}",
                        t.exponent
                    ));
                }
            }
        }
        Primitive::ConeSide {
            radius,
            half_height,
        }
        | Primitive::Capsule {
            radius,
            half_height,
        } => {
            if !(radius.is_finite()
                && *radius > 0.0
                && half_height.is_finite()
                && *half_height >= 0.0)
            {
                return bad("a cone or capsule needs a positive radius and height".into());
            }
        }
    }
    Ok(())
}

fn box_corners(lo: DVec3, hi: DVec3) -> [DVec3; 8] {
    std::array::from_fn(|i| {
        DVec3::new(
            if i & 1 == 0 { lo.x } else { hi.x },
            if i & 2 == 0 { lo.y } else { hi.y },
            if i & 4 == 0 { lo.z } else { hi.z },
        )
    })
}

/// The box of the body: the intersection of the bounded constraints' boxes, narrowed
/// by the half-spaces' vertices when the half-spaces alone are bounded.
fn bounds(
    constraints: &[Constraint],
    known_lower: DVec3,
    known_upper: DVec3,
) -> Result<(DVec3, DVec3), ImplicitError> {
    let (lo, hi) = primitive_bounds(constraints);
    let (mut lo, mut hi) = (lo.max(known_lower), hi.min(known_upper));
    let planes: Vec<[f64; 4]> = constraints
        .iter()
        .filter_map(|c| match c.primitive {
            Primitive::HalfSpace { normal, offset } => {
                // n·M(x − o) ≤ d  ⇔  (Mᵀn)·x ≤ d + (Mᵀn)·o
                let n = c.map.transpose() * normal;
                Some([n.x, n.y, n.z, offset + n.dot(c.origin)])
            }
            _ => None,
        })
        .collect();
    // The half-spaces' vertices bound the body where nothing else does; their
    // enumeration is cubic in the planes (a mesh hull's two thousand faces inside an
    // intersection took 17 s), so a box already known (its members' own) is kept.
    let boxed = lo.is_finite() && hi.is_finite();
    if planes.len() >= 4 && !boxed {
        if let Ok(vertices) = halfspace_vertices(&planes) {
            let (vl, vh) = vertices.iter().fold(
                (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
                |(a, b), p| (a.min(*p), b.max(*p)),
            );
            lo = lo.max(vl);
            hi = hi.min(vh);
        }
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return Err(ImplicitError::Unbounded(
            "no constraint (or set of half-spaces) bounds the body".into(),
        ));
    }
    if lo.cmpgt(hi).any() {
        return Err(ImplicitError::Empty(0.0));
    }
    Ok((lo, hi))
}

/// The intersection of the boxes of the constraints that bound themselves (infinite
/// where none does): the box without the half-spaces' vertices.
fn primitive_bounds(constraints: &[Constraint]) -> (DVec3, DVec3) {
    let mut lo = DVec3::splat(f64::NEG_INFINITY);
    let mut hi = DVec3::splat(f64::INFINITY);
    for c in constraints {
        if let Some((l, h)) = c.primitive.local_bounds() {
            // x = M⁻¹ u + o over the local box.
            let inverse = c.map.inverse();
            let (cl, ch) = box_corners(l, h)
                .iter()
                .map(|u| inverse * *u + c.origin)
                .fold(
                    (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
                    |(a, b), p| (a.min(p), b.max(p)),
                );
            lo = lo.max(cl);
            hi = hi.min(ch);
        }
    }
    (lo, hi)
}

/// The distinct face planes `(unit normal, offset)` of a solid hull. Each plane is put
/// where the hull's farthest vertex along its normal is, so that it supports the hull
/// whatever round-off did to the normal: a sliver face (nearly repeated vertices, as
/// where several planes of a half-space description meet) has a normal of no
/// direction in particular, and its plane through its own vertices cut the body.
fn polytope_planes(polytope: &Polytope) -> Vec<(DVec3, f64)> {
    let vertices = polytope.vertices();
    let centre = vertices.iter().fold(DVec3::ZERO, |s, v| s + *v) / vertices.len() as f64;
    let mut planes: Vec<(DVec3, f64)> = Vec::new();
    for f in polytope.faces() {
        let [a, b, c] = f.map(|i| vertices[i as usize]);
        let mut n = (b - a).cross(c - a).normalize_or_zero();
        if n == DVec3::ZERO {
            continue;
        }
        if n.dot(a - centre) < 0.0 {
            n = -n;
        }
        let d = polytope.local_support(n).dot(n);
        if !planes
            .iter()
            .any(|(m, e)| m.dot(n) > 1.0 - 1e-12 && (e - d).abs() <= 1e-12 * (1.0 + d.abs()))
        {
            planes.push((n, d));
        }
    }
    planes
}
