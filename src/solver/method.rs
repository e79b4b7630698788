//! Every method a query can be run with, by name: the steppable solvers of the GJK
//! family and Frank-Wolfe ([`Algorithm`]), and the methods of later families (EPA so
//! far), which answer other questions and keep records of their own.

use std::fmt;
use std::str::FromStr;

use super::Algorithm;

/// A named method of the CLI and problem-file runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    Solver(Algorithm),
    /// Penetration depth: GJK, then EPA when the shapes overlap.
    Epa,
}

impl Method {
    /// The name on the command line and in files (from the catalog).
    pub fn name(&self) -> &'static str {
        super::catalog::info(*self).name
    }

    /// Every method, in the order help texts list them.
    pub fn all() -> Vec<Method> {
        Algorithm::ALL
            .into_iter()
            .map(Method::Solver)
            .chain([Method::Epa])
            .collect()
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Method::all()
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Method::all().iter().map(|m| m.name()).collect();
                format!("unknown algorithm '{s}' (known: {})", names.join(", "))
            })
    }
}
