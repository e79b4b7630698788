//! The scene file format (RON, strict, versioned): what a file may say, with serde's
//! names and defaults. Turning it into shapes and validating it is `build.rs`.

use std::path::Path;

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::SceneError;
use crate::shape::implicit::{HyperTerm, Primitive};
use crate::solver::SolverSettings;

/// A shape as written in a scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ShapeSpec {
    Point,
    Sphere {
        radius: f64,
    },
    Ellipsoid {
        radii: [f64; 3],
    },
    Box {
        half_extents: [f64; 3],
    },
    Capsule {
        radius: f64,
        half_height: f64,
    },
    Cylinder {
        radius: f64,
        half_height: f64,
    },
    Cone {
        radius: f64,
        half_height: f64,
    },
    Superellipsoid {
        radii: [f64; 3],
        exponent: f64,
    },
    /// The convex hull of the given points. `polygons`, when given, are the triangles an
    /// engine's own convex object was built with over these points (Coal's
    /// `Convex(points, polygons)`, Pinocchio's `buildConvexRepresentation`): the query
    /// here is the hull's either way, and the export rebuilds the user's object as built
    /// (Coal's GJK climbs those polygons' neighbours, so a non-convex one answers
    /// wrongly there, and the reproduction must show it).
    Polytope {
        points: Vec<[f64; 3]>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        polygons: Option<Vec<[u32; 3]>>,
    },
    /// A mesh file (OBJ, STL, PLY, COLLADA), its path relative to the scene file:
    /// `as: Hull` (the default, and what a scene without `as` meant) its convex hull,
    /// `as: Mesh` its triangles, queried as the non-convex surface they make (as parry's
    /// `TriMesh`, Coal's and FCL's `BVHModel` query a mesh).
    Mesh {
        path: String,
        #[serde(rename = "as", default, skip_serializing_if = "MeshUse::is_hull")]
        use_as: MeshUse,
    },
    /// A triangle mesh written out: vertices and triangles (indices into them), open or
    /// closed, convex or not (an engine's `TriMesh` or `BVHModel`). `flags`, when given,
    /// are the parry `TriMeshFlags` bits the engine built it with (a parry capture's;
    /// 144 is `FIX_INTERNAL_EDGES`): kept so that the mesh is known as the engine's and
    /// exported as it was built; the query is the surface's either way.
    TriMesh {
        vertices: Vec<[f64; 3]>,
        triangles: Vec<[u32; 3]>,
        #[serde(default, skip_serializing_if = "is_zero")]
        flags: u16,
    },
    /// A height field in parry's layout: `heights` rows along z, each row's entries along
    /// x, spanning `[-0.5, 0.5]²` times `scale` (x, height, z); `cells`, when given, one
    /// parry `HeightFieldCellStatus` per cell, row-major (1: zigzag, 2: left triangle
    /// removed, 4: right triangle removed).
    HeightField {
        heights: Vec<Vec<f64>>,
        scale: [f64; 3],
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        cells: Vec<u8>,
    },
    /// Convex parts at their poses in the body's frame (parry's `Compound`, a MuJoCo or
    /// URDF body of several geoms), queried part by part.
    Compound {
        parts: Vec<MemberSpec>,
    },
    /// `shape ⊕ ball(radius)`.
    Dilated {
        shape: Box<ShapeSpec>,
        radius: f64,
    },
    /// `Σ |x_i / a_i|^{n_i} ≤ 1`, one exponent `n_i ≥ 1` per axis (Chakraborty et al.,
    /// "Proximity Queries between Convex Objects: An Interior Point Approach for Implicit
    /// Surfaces").
    Superquadric {
        radii: [f64; 3],
        exponents: [f64; 3],
    },
    /// `Σ_i |h_i·x + c_i|^{n_i} ≤ 1` (Chakraborty et al.'s nut and pyramid).
    Hyperquadric {
        terms: Vec<HyperTermSpec>,
    },
    /// `{x : n·x ≤ d}` for each `[n1, n2, n3, d]`: bounded alone, or inside an
    /// intersection.
    Halfspaces {
        planes: Vec<[f64; 4]>,
    },
    /// The points inside every member, each placed at its pose.
    Intersection {
        members: Vec<MemberSpec>,
    },
    /// The convex hull of the union of the members (a robot link's collision elements).
    UnionHull {
        members: Vec<MemberSpec>,
    },
    /// Planar scenes: the convex hull of points of the xy-plane.
    Polygon {
        points: Vec<[f64; 2]>,
    },
    /// Planar scenes: a disc in the xy-plane.
    Circle {
        radius: f64,
    },
    /// Planar scenes: an ellipse with semi-axes along x and y.
    Ellipse {
        radii: [f64; 2],
    },
    /// Planar scenes: a stadium (2-D capsule), its segment along y.
    Stadium {
        radius: f64,
        half_length: f64,
    },
    /// Planar scenes: a rectangle.
    Rectangle {
        half_extents: [f64; 2],
    },
}

/// How a scene takes a mesh file: its convex hull or its triangles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeshUse {
    /// The convex hull of the file's vertices (MuJoCo's mesh geoms, a convex solver's
    /// view).
    #[default]
    Hull,
    /// The file's triangles, as a non-convex surface (parry's `TriMesh`, Coal's
    /// `BVHModel`, MoveIt's and Pinocchio's URDF meshes).
    Mesh,
}

fn is_zero(bits: &u16) -> bool {
    *bits == 0
}

impl MeshUse {
    pub fn is_hull(&self) -> bool {
        *self == MeshUse::Hull
    }
}

impl ShapeSpec {
    /// The convex hull of `points` (no engine polygons).
    pub fn hull_of(points: Vec<[f64; 3]>) -> Self {
        ShapeSpec::Polytope {
            points,
            polygons: None,
        }
    }

    /// The kinds that are not one convex body (meshes taken as triangles, height
    /// fields, compounds): a scene answers them through the midphase.
    pub fn is_composite(&self) -> bool {
        matches!(
            self,
            ShapeSpec::Mesh {
                use_as: MeshUse::Mesh,
                ..
            } | ShapeSpec::TriMesh { .. }
                | ShapeSpec::HeightField { .. }
                | ShapeSpec::Compound { .. }
        )
    }

    /// The kinds of the planar mode (shapes of the xy-plane).
    pub fn is_planar(&self) -> bool {
        matches!(
            self,
            ShapeSpec::Polygon { .. }
                | ShapeSpec::Circle { .. }
                | ShapeSpec::Ellipse { .. }
                | ShapeSpec::Stadium { .. }
                | ShapeSpec::Rectangle { .. }
                | ShapeSpec::Point
        )
    }
}

/// A hyperquadric's term `|normal·x + offset|^exponent` (scene and problem files).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Term", deny_unknown_fields)]
pub struct HyperTermSpec {
    pub normal: [f64; 3],
    #[serde(default)]
    pub offset: f64,
    pub exponent: f64,
}

impl HyperTermSpec {
    /// The hyperquadric primitive of `terms`.
    pub fn primitive(terms: &[HyperTermSpec]) -> Primitive {
        Primitive::Hyperquadric {
            terms: terms
                .iter()
                .map(|t| HyperTerm {
                    normal: DVec3::from_array(t.normal),
                    offset: t.offset,
                    exponent: t.exponent,
                })
                .collect(),
        }
    }
}

/// A member of an intersection: a shape at a pose in the body's frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Member", deny_unknown_fields)]
pub struct MemberSpec {
    pub shape: ShapeSpec,
    #[serde(default)]
    pub translation: [f64; 3],
    #[serde(default = "no_rotation")]
    pub rotation: RotationSpec,
}

/// A rotation as written in a scene file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum RotationSpec {
    /// XYZ Euler angles in degrees.
    EulerDegrees([f64; 3]),
    /// A unit quaternion `(x, y, z, w)` (within [`crate::pose::QUATERNION_TOLERANCE`]
    /// of unit length, as an f32 engine's quaternion widened is), standing for the
    /// rotation of the quaternion normalised in f64
    /// ([`crate::pose::normalized_quaternion`]).
    Quaternion([f64; 4]),
    /// A rotation matrix, rows first, used as given: Coal's and FCL's poses, a problem
    /// file's `b_rotation`. Orthonormal to [`crate::pose::MATRIX_TOLERANCE`].
    Matrix([[f64; 3]; 3]),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Body", deny_unknown_fields)]
pub struct BodySpec {
    /// What the body is called where it came from (a robot's link, a MuJoCo geom): the
    /// viewer's pair list and messages use it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub shape: ShapeSpec,
    #[serde(default)]
    pub translation: [f64; 3],
    #[serde(default = "no_rotation")]
    pub rotation: RotationSpec,
    /// The body's translation over the motion (world frame; t runs from 0 to 1), for
    /// the time-of-impact methods. Absent: the body stays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub velocity: Option<[f64; 3]>,
    /// The body's turn over the motion: a rotation vector (axis × angle in radians,
    /// world frame) about its own origin. Only conservative advancement takes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spin: Option<[f64; 3]>,
}

fn no_rotation() -> RotationSpec {
    RotationSpec::EulerDegrees([0.0; 3])
}

/// The scene's settings (`settings: Settings(...)`): the solver's own settings type,
/// serialised as every file holds it ([`SolverSettings`]: every field optional, the rest
/// Coal's defaults). The name stays for the Python package and older callers.
pub type SettingsSpec = SolverSettings;

/// Version 1's top level: exactly two bodies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Scene", deny_unknown_fields)]
pub struct SceneFileV1 {
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub notes: String,
    pub a: BodySpec,
    pub b: BodySpec,
    pub algorithms: Vec<String>,
    #[serde(default)]
    pub settings: SolverSettings,
}

/// Whether the scene lives in space or in the xy-plane (teaching in 2-D).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dimension {
    #[default]
    Spatial,
    Planar,
}

/// One step of a lesson: what the viewer shows and says at that point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Step", deny_unknown_fields)]
pub struct LessonStep {
    /// The paragraph shown (Markdown-light).
    pub text: String,
    /// The algorithm in focus (a name as on the command line); unchanged when absent
    /// (every field below likewise, but `frame` and `expect`).
    #[serde(default)]
    pub algorithm: Option<String>,
    /// The pair in focus (an index into the scene's pairs); unchanged when absent.
    #[serde(default)]
    pub pair: Option<usize>,
    /// The record under the cursor, from 0; unchanged when absent.
    #[serde(default)]
    pub cursor: Option<usize>,
    /// The layers shown by name (`shapes`, `difference`, `simplex`, ...); as the step
    /// before when absent (all, for a first step).
    #[serde(default)]
    pub layers: Option<Vec<String>>,
    /// Camera as (eye, target), world coordinates; unchanged when absent.
    #[serde(default)]
    pub camera: Option<([f64; 3], [f64; 3])>,
    /// Or: frame the whole scene or the current step (after `camera`).
    #[serde(default)]
    pub frame: Option<LessonFrame>,
    /// What the step shows, as written when the lesson was checked: a solver change
    /// that changes it fails the lesson test, so the text is revised on purpose.
    #[serde(default)]
    pub expect: Option<StepExpectation>,
    /// `false`: the run's narration line is hidden on this step (a step that talks
    /// about A ⊖ B before GJK is introduced shows no GJK narration).
    #[serde(default = "shown", skip_serializing_if = "is_shown")]
    pub narration: bool,
}

fn shown() -> bool {
    true
}

fn is_shown(b: &bool) -> bool {
    *b
}

/// A lesson step's camera framing: the whole scene, the step (the origin, the simplex,
/// the iterate and the support), the step's newest part alone (the origin, the new
/// support and the new iterate), for a step whose news is far smaller than
/// its simplex, or the pair's `A ⊖ B` with the origin (a page about the difference's
/// shape, in a scene of several pairs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LessonFrame {
    All,
    Step,
    Newest,
    Difference,
}

/// The focused run's iteration count and the viewer's narration at the step's cursor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Expect", deny_unknown_fields)]
pub struct StepExpectation {
    pub iterations: usize,
    pub narration: String,
}

/// The layer names a lesson step may show (the viewer's "Show" toggles, and `plots`:
/// the playback panel's plots, folded away in a lesson unless a step shows them).
pub const LAYER_NAMES: [&str; 16] = [
    "shapes",
    "difference",
    "simplex",
    "labels",
    "support",
    "parts",
    "iterate",
    "witness",
    "fw_path",
    "in_place",
    "plots",
    "construction",
    "bvh",
    "internal_edges",
    "plane",
    "region",
];

/// The file's top level (version 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Scene", deny_unknown_fields)]
pub struct SceneFile {
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub notes: String,
    #[serde(default)]
    pub dimension: Dimension,
    /// Two or more bodies.
    pub bodies: Vec<BodySpec>,
    /// The pairs to check, as indices into `bodies`; every pair when empty. The first
    /// is the one the viewer and `solve` focus on.
    #[serde(default)]
    pub pairs: Vec<(usize, usize)>,
    /// Algorithm names as on the command line (`gjk`, `nesterov`, `fw_linesearch`, ...).
    pub algorithms: Vec<String>,
    #[serde(default)]
    pub settings: SolverSettings,
    #[serde(default)]
    pub lesson: Vec<LessonStep>,
    /// Questions to ask the class after the lesson (a page after its last step, and on
    /// the worksheet `collidescope lesson --worksheet` writes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub questions: Vec<String>,
    /// The answer to each question, in order (the worksheet's answer key).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<String>,
}

impl From<SceneFileV1> for SceneFile {
    fn from(v1: SceneFileV1) -> Self {
        SceneFile {
            version: v1.version,
            name: v1.name,
            notes: v1.notes,
            dimension: Dimension::Spatial,
            bodies: vec![v1.a, v1.b],
            pairs: vec![(0, 1)],
            algorithms: v1.algorithms,
            settings: v1.settings,
            lesson: Vec::new(),
            questions: Vec::new(),
            answers: Vec::new(),
        }
    }
}

/// The `version` field alone, read first to pick the format.
#[derive(Deserialize)]
#[serde(rename = "Scene")]
pub(super) struct VersionOnly {
    pub version: u32,
}

impl SceneFile {
    /// The file's RON text (floats in shortest round-trip form: read back to the bit).
    pub fn to_ron(&self) -> Result<String, String> {
        let config = ron::ser::PrettyConfig::new()
            .depth_limit(4)
            .struct_names(true);
        ron::ser::to_string_pretty(self, config)
            .map(|text| text + "\n")
            .map_err(|e| format!("cannot serialise: {e}"))
    }

    /// Writes the RON text to `path`.
    pub fn write(&self, path: &Path) -> Result<(), SceneError> {
        let text = self.to_ron().map_err(|message| SceneError::Invalid {
            path: path.to_path_buf(),
            message,
        })?;
        std::fs::write(path, text).map_err(|source| SceneError::Write {
            path: path.to_path_buf(),
            source,
        })
    }
}
