//! Building a scene's bodies from their specs, and the checks that refuse what cannot
//! be answered: the one shape builder (problem files build theirs through it too).

use std::path::{Path, PathBuf};

use glam::{DMat3, DQuat, DVec3};

use std::sync::Arc;

use super::format::{BodySpec, Dimension, HyperTermSpec, MeshUse, RotationSpec, ShapeSpec};
use super::{Body, Scene, SceneError};
use crate::composite::{Composite, CompositeError, HeightField, Part, TriMesh, TriMeshError};
use crate::mesh::{load_mesh, MeshError, MeshReport};
use crate::pose::{Pose, RelativePose};
use crate::shape::implicit::{
    half_space_constraints, BodyParts, Constraint, ImplicitBody, ImplicitError, ImplicitShape,
    Primitive,
};
use crate::shape::{
    Capsule, Cone, Cuboid, Cylinder, Dilated, Ellipsoid, PointShape, Polytope, Shape, ShapeError,
    Sphere, Superellipsoid, UnionHull,
};
use crate::solver::Method;

impl Scene {
    /// Builds a body from a shape description at `pose` (the viewer's shape editor).
    pub fn build_body_spec(spec: &ShapeSpec, base_dir: &Path, pose: Pose) -> Result<Body, String> {
        let mut mesh_report = None;
        let composite = build_composite(spec, base_dir).map_err(|e| e.to_string())?;
        let shape = match &composite {
            Some(c) => c.hull().clone(),
            None => build_shape(spec, base_dir, &mut mesh_report).map_err(|e| e.to_string())?,
        };
        Ok(Body {
            name: None,
            spec: spec.clone(),
            shape,
            composite,
            pose,
            mesh_report,
            velocity: None,
            spin: None,
        })
    }
}

/// "a", "b", then "body 3", ... as messages name bodies.
pub(super) fn body_name(index: usize) -> String {
    match index {
        0 => "a".to_string(),
        1 => "b".to_string(),
        i => format!("body {}", i + 1),
    }
}

/// A planar scene holds planar shapes in the xy-plane, turned about z only, and runs
/// the GJK family and Frank-Wolfe (the methods that work on the flat `A ⊖ B`); a
/// spatial scene holds no planar kinds.
pub(super) fn check_dimension(
    dimension: Dimension,
    bodies: &[Body],
    methods: &[Method],
) -> Result<(), String> {
    for (i, body) in bodies.iter().enumerate() {
        let name = body_name(i);
        match dimension {
            Dimension::Spatial if body.spec.is_planar() && body.spec != ShapeSpec::Point => {
                return Err(format!(
                    "shape {name}: a planar kind needs `dimension: Planar`"
                ));
            }
            Dimension::Spatial => {}
            Dimension::Planar => {
                if !body.spec.is_planar() {
                    return Err(format!(
                        "shape {name}: a planar scene takes polygons, circles, ellipses, stadiums, rectangles and points"
                    ));
                }
                let q = body.pose.rotation;
                if body.pose.translation.z != 0.0 || q.x.abs() > 1e-12 || q.y.abs() > 1e-12 {
                    return Err(format!(
                        "shape {name}: a planar scene's shapes lie in the xy-plane (z = 0, turned about z only)"
                    ));
                }
                let moves_off = [body.velocity, body.spin]
                    .iter()
                    .flatten()
                    .any(|v| v.z != 0.0);
                if moves_off {
                    return Err(format!("shape {name}: a planar motion stays in the plane"));
                }
            }
        }
    }
    if dimension == Dimension::Planar {
        if let Some(m) = methods
            .iter()
            .find(|m| m.entry::<crate::solver::Algorithm>().is_none())
        {
            return Err(format!(
                "algorithms: {m} does not run in a planar scene (the GJK family and Frank-Wolfe do)"
            ));
        }
    }
    Ok(())
}

pub(super) fn build_body(
    spec: &BodySpec,
    name: &str,
    path: &Path,
    base_dir: &Path,
) -> Result<Body, SceneError> {
    let invalid = |message: String| SceneError::Invalid {
        path: path.to_path_buf(),
        message: format!("shape {name}: {message}"),
    };
    let translation = DVec3::from_array(spec.translation);
    if !translation.is_finite() {
        return Err(invalid(format!(
            "translation must be finite, got {translation}"
        )));
    }
    if let Some(why) = crate::solver::beyond_size_cap(translation) {
        return Err(invalid(format!("translation {why}")));
    }
    let pose = match spec.rotation {
        RotationSpec::EulerDegrees(d) => {
            let d = DVec3::from_array(d);
            if !d.is_finite() {
                return Err(invalid(format!("rotation angles must be finite, got {d}")));
            }
            Pose::from_euler_degrees(translation, d)
        }
        RotationSpec::Quaternion(q) => Pose::new(
            translation,
            crate::pose::unit_quaternion(q).map_err(&invalid)?,
        ),
        RotationSpec::Matrix(rows) => Pose::from_matrix(
            translation,
            crate::pose::rigid_rotation(rows).map_err(&invalid)?,
        ),
    };
    let velocity = spec.velocity.map(DVec3::from_array);
    let spin = spec.spin.map(DVec3::from_array);
    for (what, v) in [("velocity", velocity), ("spin", spin)] {
        if let Some(v) = v.filter(|v| !v.is_finite()) {
            return Err(invalid(format!("{what} must be finite, got {v}")));
        }
    }
    let mut mesh_report = None;
    let refusal = |e: BuildError| match e {
        BuildError::Mesh(source) => SceneError::Mesh {
            path: path.to_path_buf(),
            body: name.to_string(),
            source: Box::new(source),
        },
        other => invalid(other.to_string()),
    };
    let composite = build_composite(&spec.shape, base_dir).map_err(refusal)?;
    let shape = match &composite {
        Some(c) => c.hull().clone(),
        None => build_shape(&spec.shape, base_dir, &mut mesh_report).map_err(refusal)?,
    };
    Ok(Body {
        name: spec.name.clone(),
        spec: spec.shape.clone(),
        shape,
        composite,
        pose,
        mesh_report,
        velocity,
        spin,
    })
}

/// A shape a spec describes, meshes read relative to `base_dir`: the builder scenes,
/// the viewer's shape editor and problem files share.
pub fn build_shape_spec(spec: &ShapeSpec, base_dir: &Path) -> Result<Shape, String> {
    build_shape(spec, base_dir, &mut None).map_err(|e| e.to_string())
}

enum BuildError {
    Shape(ShapeError),
    Mesh(MeshError),
    Implicit(ImplicitError),
    Composite(CompositeError),
    /// A mesh taken as its triangles with an edge of three triangles or more: refused
    /// with what to do instead (`file`: the mesh file, for `Mesh(path, as: Mesh)`).
    NotASurface {
        /// The edge and its triangles, as the user can find them.
        edge: String,
        file: Option<PathBuf>,
    },
    /// An engine polygon of a `Polytope` that names a point it does not have.
    Polygon(String),
}

/// What to do with a mesh that is not a surface: the scene format's two ways to take
/// the same triangles (robots keep such edges, and Python's from_coal and
/// from_pinocchio take the compound, so the user is told both are there).
const NOT_A_SURFACE_ADVICE: &str = "to check it anyway, take its convex hull (a mesh \
    file `as: Hull`; Python `MeshFile(path, hull=True)`), or its triangles as a `Compound` \
    whose parts are `Polytope`s of each triangle's three corners (the same surface, \
    without internal edges; Python `Compound([Convex(v[t]) for t in triangles])`, which \
    `Scene.from_coal` and `from_pinocchio` build for a Coal mesh); `collidescope robot` \
    keeps such an edge, joining none of its triangles";

impl BuildError {
    /// [`TriMesh::new`]'s refusal of a mesh written out, with the advice when it is not
    /// a surface.
    fn of_trimesh(e: TriMeshError) -> Self {
        match e {
            TriMeshError::NonManifoldEdge { .. } => BuildError::NotASurface {
                edge: e.to_string(),
                file: None,
            },
            other => BuildError::Composite(other.into()),
        }
    }

    /// [`TriMesh::new`]'s refusal of the `triangles` of the mesh file `path`: a fin's
    /// ends by position (the soup's vertex numbers mean nothing in the file), with the
    /// advice.
    fn of_mesh_file(e: TriMeshError, path: &Path, triangles: &[[DVec3; 3]]) -> Self {
        match e {
            TriMeshError::NonManifoldEdge { a, b, triangles: t } => {
                let corner = |v: u32| {
                    let p = triangles[v as usize / 3][v as usize % 3];
                    format!("({}, {}, {})", p.x, p.y, p.z)
                };
                let t: Vec<String> = t.iter().map(u32::to_string).collect();
                BuildError::NotASurface {
                    edge: format!(
                        "the edge {}–{} belongs to {} triangles ({}); an edge of a surface \
                         belongs to one or two",
                        corner(a),
                        corner(b),
                        t.len(),
                        t.join(", ")
                    ),
                    file: Some(path.to_path_buf()),
                }
            }
            other => BuildError::Mesh(MeshError::Parse {
                path: path.to_path_buf(),
                format: "mesh",
                reason: other.to_string(),
            }),
        }
    }
}

impl From<CompositeError> for BuildError {
    fn from(e: CompositeError) -> Self {
        BuildError::Composite(e)
    }
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Shape(e) => e.fmt(f),
            BuildError::Mesh(e) => e.fmt(f),
            BuildError::Implicit(e) => e.fmt(f),
            BuildError::Composite(e) => e.fmt(f),
            BuildError::NotASurface { edge, file } => {
                if let Some(path) = file {
                    write!(
                        f,
                        "{}: taken as its triangles (`as: Mesh`), ",
                        path.display()
                    )?;
                }
                write!(f, "{edge}; {NOT_A_SURFACE_ADVICE}")
            }
            BuildError::Polygon(why) => f.write_str(why),
        }
    }
}

impl From<ImplicitError> for BuildError {
    fn from(e: ImplicitError) -> Self {
        BuildError::Implicit(e)
    }
}

impl From<ShapeError> for BuildError {
    fn from(e: ShapeError) -> Self {
        BuildError::Shape(e)
    }
}

/// Builds the core shape a spec describes (loading meshes relative to `base_dir`).
fn build_shape(
    spec: &ShapeSpec,
    base_dir: &Path,
    report: &mut Option<MeshReport>,
) -> Result<Shape, BuildError> {
    let v = DVec3::from_array;
    Ok(match spec {
        ShapeSpec::Point => Shape::Point(PointShape),
        ShapeSpec::Sphere { radius } => Shape::Sphere(Sphere::new(*radius)?),
        ShapeSpec::Ellipsoid { radii } => Shape::Ellipsoid(Ellipsoid::new(v(*radii))?),
        ShapeSpec::Box { half_extents } => Shape::Cuboid(Cuboid::new(v(*half_extents))?),
        ShapeSpec::Capsule {
            radius,
            half_height,
        } => Shape::Capsule(Capsule::new(*radius, *half_height)?),
        ShapeSpec::Cylinder {
            radius,
            half_height,
        } => Shape::Cylinder(Cylinder::new(*radius, *half_height)?),
        ShapeSpec::Cone {
            radius,
            half_height,
        } => Shape::Cone(Cone::new(*radius, *half_height)?),
        ShapeSpec::Superellipsoid { radii, exponent } => {
            Shape::Superellipsoid(Superellipsoid::new(v(*radii), *exponent)?)
        }
        ShapeSpec::Polytope { points, polygons } => {
            if let Some((k, polygon)) = polygons
                .iter()
                .flatten()
                .enumerate()
                .find(|(_, p)| p.iter().any(|&i| i as usize >= points.len()))
            {
                return Err(BuildError::Polygon(format!(
                    "polygon {k} {polygon:?} names a point past the {} points (0..{})",
                    points.len(),
                    points.len().saturating_sub(1)
                )));
            }
            let points: Vec<DVec3> = points.iter().map(|p| v(*p)).collect();
            Shape::Polytope(Polytope::from_points(&points)?)
        }
        ShapeSpec::Mesh {
            use_as: MeshUse::Mesh,
            ..
        }
        | ShapeSpec::TriMesh { .. }
        | ShapeSpec::HeightField { .. }
        | ShapeSpec::Compound { .. } => {
            let composite = build_composite(spec, base_dir)?.expect("a composite kind");
            composite.hull().clone()
        }
        ShapeSpec::Mesh { path, .. } => {
            let mesh = load_mesh(&base_dir.join(path)).map_err(BuildError::Mesh)?;
            *report = Some(mesh.report);
            Shape::Polytope(mesh.polytope)
        }
        ShapeSpec::Dilated { shape, radius } => {
            let inner = build_shape(shape, base_dir, report)?;
            Shape::Dilated(Dilated::new(inner, *radius)?)
        }
        // The planar kinds are the 3-D shapes whose support along any direction of the
        // xy-plane lies in that plane: GJK on them never leaves it.
        ShapeSpec::Polygon { points } => {
            let points: Vec<DVec3> = points.iter().map(|p| DVec3::new(p[0], p[1], 0.0)).collect();
            Shape::Polytope(Polytope::from_points(&points)?)
        }
        ShapeSpec::Circle { radius } => Shape::Sphere(Sphere::new(*radius)?),
        ShapeSpec::Ellipse { radii: [a, b] } => {
            Shape::Ellipsoid(Ellipsoid::new(DVec3::new(*a, *b, a.min(*b)))?)
        }
        ShapeSpec::Stadium {
            radius,
            half_length,
        } => Shape::Capsule(Capsule::new(*radius, *half_length)?),
        ShapeSpec::Rectangle {
            half_extents: [x, y],
        } => {
            let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .map(|(sx, sy)| DVec3::new(sx * x, sy * y, 0.0));
            Shape::Polytope(Polytope::from_points(&corners)?)
        }
        ShapeSpec::UnionHull { members } => {
            let parts = members
                .iter()
                .map(|m| {
                    let shape = build_shape(&m.shape, base_dir, report)?;
                    let pose = Pose::new(DVec3::from_array(m.translation), member_turn(m.rotation));
                    Ok((shape, pose))
                })
                .collect::<Result<Vec<_>, BuildError>>()?;
            let union = UnionHull::new(parts).ok_or_else(|| {
                BuildError::Implicit(ImplicitError::Invalid("a union needs a member".into()))
            })?;
            Shape::Union(union)
        }
        ShapeSpec::Superquadric { radii, exponents }
            if exponents.iter().all(|n| *n == exponents[0]) =>
        {
            Shape::Superellipsoid(Superellipsoid::new(v(*radii), exponents[0])?)
        }
        ShapeSpec::Superquadric { .. }
        | ShapeSpec::Hyperquadric { .. }
        | ShapeSpec::Halfspaces { .. }
        | ShapeSpec::Intersection { .. } => {
            let parts = implicit_constraints(spec, DMat3::IDENTITY, DVec3::ZERO, base_dir)?;
            let what = match spec {
                ShapeSpec::Superquadric { .. } => "superquadric".to_string(),
                ShapeSpec::Hyperquadric { .. } => "hyperquadric".to_string(),
                ShapeSpec::Halfspaces { planes } => format!("{} half-spaces", planes.len()),
                ShapeSpec::Intersection { members } => format!("intersection of {}", members.len()),
                _ => unreachable!("matched above"),
            };
            Shape::Implicit(ImplicitShape::new(parts.into_body()?, what)?)
        }
    })
}

/// The composite a spec describes (`None` for a convex kind): a mesh file's triangles,
/// a mesh written out, a height field, a compound of convex parts.
fn build_composite(
    spec: &ShapeSpec,
    base_dir: &Path,
) -> Result<Option<Arc<Composite>>, BuildError> {
    let composite = match spec {
        ShapeSpec::Mesh {
            path,
            use_as: MeshUse::Mesh,
        } => {
            let full = base_dir.join(path);
            let triangles = crate::mesh::load_triangles(&full).map_err(BuildError::Mesh)?;
            let vertices: Vec<DVec3> = triangles.iter().flatten().copied().collect();
            let indices = (0..triangles.len() as u32)
                .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
                .collect();
            let mesh = TriMesh::new(vertices, indices)
                .map_err(|e| BuildError::of_mesh_file(e, &full, &triangles))?;
            Composite::of_mesh(mesh)?
        }
        ShapeSpec::TriMesh {
            vertices,
            triangles,
            ..
        } => {
            let vertices = vertices.iter().map(|p| DVec3::from_array(*p)).collect();
            Composite::of_mesh(
                TriMesh::new(vertices, triangles.clone()).map_err(BuildError::of_trimesh)?,
            )?
        }
        ShapeSpec::HeightField {
            heights,
            scale,
            cells,
        } => {
            let mut field = HeightField::new(heights.clone(), DVec3::from_array(*scale))
                .map_err(CompositeError::from)?;
            if !cells.is_empty() {
                field = field
                    .with_status(cells.clone())
                    .map_err(CompositeError::from)?;
            }
            Composite::of_height_field(field)?
        }
        ShapeSpec::Compound { parts } => {
            let mut built = Vec::with_capacity(parts.len());
            for (k, m) in parts.iter().enumerate() {
                if m.shape.is_composite() {
                    return Err(CompositeError::NonConvexPart { part: k }.into());
                }
                let translation = DVec3::from_array(m.translation);
                if !translation.is_finite() {
                    return Err(BuildError::Implicit(ImplicitError::Invalid(format!(
                        "part {k}: translation must be finite, got {translation}"
                    ))));
                }
                let shape = build_shape(&m.shape, base_dir, &mut None)?;
                let pose = RelativePose::from_matrix(member_rotation(m.rotation), translation);
                built.push(Part { shape, pose });
            }
            Composite::of_parts(built)?
        }
        _ => return Ok(None),
    };
    Ok(Some(composite))
}

/// A member's rotation.
fn member_turn(rotation: RotationSpec) -> DQuat {
    match rotation {
        RotationSpec::EulerDegrees(d) => {
            Pose::from_euler_degrees(DVec3::ZERO, DVec3::from_array(d)).rotation
        }
        RotationSpec::Quaternion(q) => crate::pose::normalized_quaternion(DQuat::from_array(q)),
        RotationSpec::Matrix(rows) => {
            DQuat::from_mat3(&DMat3::from_cols_array_2d(&rows).transpose()).normalize()
        }
    }
}

/// A member's rotation as a matrix: a given matrix exactly (a problem file's), the
/// other forms through their quaternion.
fn member_rotation(rotation: RotationSpec) -> DMat3 {
    match rotation {
        RotationSpec::Matrix(rows) => DMat3::from_cols_array_2d(&rows).transpose(),
        other => DMat3::from_quat(member_turn(other)),
    }
}

/// A spec's implicit constraints placed at `(rotation, translation)`, with the box of
/// the shapes they come from (a cone's side and base bound it only together).
fn implicit_constraints(
    spec: &ShapeSpec,
    rotation: DMat3,
    translation: DVec3,
    base_dir: &Path,
) -> Result<BodyParts, BuildError> {
    let place = |p: Primitive| Constraint::placed(p, rotation, translation);
    Ok(match spec {
        ShapeSpec::Superquadric { radii, exponents } => {
            BodyParts::unboxed(vec![place(Primitive::superquadric(*radii, *exponents))])
        }
        ShapeSpec::Hyperquadric { terms } => {
            BodyParts::unboxed(vec![place(HyperTermSpec::primitive(terms))])
        }
        ShapeSpec::Halfspaces { planes } => {
            BodyParts::unboxed(half_space_constraints(planes, rotation, translation)?)
        }
        ShapeSpec::Intersection { members } => {
            let mut all = BodyParts::unboxed(Vec::new());
            for m in members {
                let (r, t) = (
                    rotation * member_rotation(m.rotation),
                    rotation * DVec3::from_array(m.translation) + translation,
                );
                all = all.and(implicit_constraints(&m.shape, r, t, base_dir)?);
            }
            all
        }
        other => {
            let shape = build_shape(other, base_dir, &mut None)?;
            let body = ImplicitBody::of_shape(&shape)?;
            BodyParts::of_body(&body.moved(RelativePose::from_matrix(rotation, translation)))
        }
    })
}
