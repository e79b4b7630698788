//! An implicit body as a shape kind: superquadrics with one exponent per axis,
//! hyperquadrics and intersections (what no other kind describes). Its support is
//! found numerically (the interior point's `support`), for drawing and sampling; the
//! GJK family does not take it (no support in closed form: `not_applicable`).

use glam::DVec3;

use super::{interior_of, support};
use super::{ImplicitBody, ImplicitError};
use crate::shape::SupportMap;

/// A body with a strictly interior point found once, at construction.
#[derive(Clone, Debug, PartialEq)]
pub struct ImplicitShape {
    body: ImplicitBody,
    inside: DVec3,
    /// What it is, for reports ("superquadric", "intersection of 3", ...).
    what: String,
}

impl ImplicitShape {
    /// Refuses empty bodies (phase 1 proves it) as well as unbounded ones.
    pub fn new(body: ImplicitBody, what: impl Into<String>) -> Result<Self, ImplicitError> {
        let inside = interior_of(&body)?;
        Ok(Self {
            body: body.with_interior(inside),
            inside,
            what: what.into(),
        })
    }

    pub fn body(&self) -> &ImplicitBody {
        &self.body
    }

    pub fn interior(&self) -> DVec3 {
        self.inside
    }

    pub fn what(&self) -> &str {
        &self.what
    }
}

impl SupportMap for ImplicitShape {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        support(&self.body, self.inside, dir)
    }
}
