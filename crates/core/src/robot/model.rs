//! A robot from its URDF: the link tree, its joints (revolute, continuous, prismatic,
//! fixed; mimic joints following their leader), and per link with collision geometry
//! one convex shape and, checked as meshes ([`CollisionMode::Mesh`]), the link's
//! geometry as MoveIt and Pinocchio check it ([`LinkComposite`]). The convex shape is
//! described as a scene's shapes are (`ShapeSpec`) and built by the scene's builder: a lone box, cylinder or sphere keeps the primitive; anything
//! else is the hull of every collision vertex (boxes' corners, meshes' vertices after
//! the mesh `scale`, which may be negative), each element's `<origin>` applied, and
//! when spheres, cylinders or capsules are among several elements, the hull of the
//! union of that polytope and those parts (`UnionHull`: its support is the largest of
//! the parts').

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{DQuat, DVec3, EulerRot};

use super::visual::{load_visuals, Visuals};
use crate::composite::{Composite, Part, TriMesh, TriMeshError};
use crate::pose::{Pose, RelativePose};
use crate::scene::{build_shape_spec, MemberSpec, MeshUse, RotationSpec, ShapeSpec};
use crate::shape::Shape;

/// How a link's collision meshes are checked: as their convex hulls (fast, one GJK run
/// per pair, warm-started), or as the triangle meshes they are, as MoveIt (FCL) and
/// Pinocchio (Coal) check URDF meshes (`BVHModel`), through the composite midphase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CollisionMode {
    #[default]
    Hull,
    Mesh,
}

impl CollisionMode {
    pub fn name(self) -> &'static str {
        match self {
            CollisionMode::Hull => "hull",
            CollisionMode::Mesh => "mesh",
        }
    }
}

/// A link's collision geometry checked as meshes: one triangle mesh when every element
/// is a mesh (all of them, each with its `scale` and `<origin>`), a compound of convex
/// parts otherwise (each box, sphere, cylinder or capsule whole, each mesh triangle a
/// part); a link of one box, sphere, cylinder or capsule has none (its shape is exact).
#[derive(Clone, Debug)]
pub struct LinkComposite {
    /// In the link shape's frame ([`LinkShape::offset`]).
    pub composite: Arc<Composite>,
    /// The scene-file description that builds it again: `Mesh(path, as: Mesh)` for a
    /// lone mesh element at unit scale, its triangles (`TriMesh`) or parts (`Compound`)
    /// otherwise.
    pub spec: ShapeSpec,
}

/// A joint's motion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JointKind {
    Fixed,
    Revolute,
    Continuous,
    Prismatic,
}

/// A joint of the tree.
#[derive(Clone, Debug)]
pub struct RobotJoint {
    pub name: String,
    pub kind: JointKind,
    pub parent: usize,
    pub child: usize,
    /// The child frame in the parent's at q = 0.
    pub origin: Pose,
    pub axis: DVec3,
    /// `(lower, upper)` for revolute and prismatic joints.
    pub limits: Option<(f64, f64)>,
    /// `(leader joint, multiplier, offset)`: q = multiplier · q_leader + offset.
    pub mimic: Option<(usize, f64, f64)>,
}

/// A link with collision geometry and its convex shape.
#[derive(Clone, Debug)]
pub struct LinkShape {
    /// Index into [`RobotModel::link_names`].
    pub link: usize,
    pub name: String,
    /// The convex shape: the primitive, or the hull of the link's geometry.
    pub shape: Shape,
    /// The shape's frame in the link's.
    pub offset: Pose,
    /// The link's geometry as a mesh or compound (loaded in [`CollisionMode::Mesh`]),
    /// in the same frame as `shape`; `None` for a lone primitive, or loaded as hulls.
    pub mesh: Option<LinkComposite>,
}

/// A loaded robot.
#[derive(Clone, Debug)]
pub struct RobotModel {
    pub name: String,
    /// Every URDF link, in file order.
    pub link_names: Vec<String>,
    pub joints: Vec<RobotJoint>,
    /// The joints in an order where every parent comes first.
    pub order: Vec<usize>,
    pub root: usize,
    /// Links with collision geometry, in URDF order.
    pub shapes: Vec<LinkShape>,
    /// How the model was loaded: as hulls only, or with each link's mesh too (the
    /// checks' default, [`super::SelfCollision::collision`]).
    pub collision: CollisionMode,
    /// The joints a configuration sets: movable, not mimic, URDF order.
    pub actuated: Vec<usize>,
    /// Things the loader let pass (floating or planar joints held at 0, ...).
    pub warnings: Vec<String>,
    /// How the links look (URDF `<visual>`): drawing only.
    pub visuals: Visuals,
}

/// Where a URDF goes wrong that urdf-rs refuses, or reads wrong (its messages name no
/// element, and its vectors skip the words that are not numbers: `xyz="0 abc 0 1"` read
/// as 0 0 1): the XML parser's own position, or the first vector attribute (`xyz`,
/// `rpy`, `size`, `scale`; `rgba`) without three (four) numbers, or number attribute
/// that is not one, with its element and line. Run before urdf-rs; `<gazebo>` and
/// `<transmission>` blocks, which it does not read, are left alone.
fn urdf_fault(text: &str) -> Option<String> {
    let doc = match roxmltree::Document::parse(text) {
        Ok(doc) => doc,
        Err(e) => return Some(format!("not well-formed XML: {e}")),
    };
    let vectors = ["xyz", "rpy", "size", "scale"];
    let numbers = [
        "radius",
        "length",
        "lower",
        "upper",
        "effort",
        "velocity",
        "multiplier",
        "offset",
    ];
    let unread = |n: &roxmltree::Node| {
        n.ancestors()
            .any(|a| a.has_tag_name("gazebo") || a.has_tag_name("transmission"))
    };
    for node in doc.descendants().filter(|n| n.is_element() && !unread(n)) {
        for attribute in node.attributes() {
            let (name, value) = (attribute.name(), attribute.value());
            let parsed: Vec<Option<f64>> = value
                .split_whitespace()
                .map(|w| w.parse::<f64>().ok())
                .collect();
            let wrong = if name == "rgba" {
                parsed.len() != 4 || parsed.iter().any(Option::is_none)
            } else if vectors.contains(&name) {
                parsed.len() != 3 || parsed.iter().any(Option::is_none)
            } else if numbers.contains(&name) {
                parsed.len() != 1 || parsed[0].is_none()
            } else {
                false
            };
            if wrong {
                let at = doc.text_pos_at(node.range().start);
                let owner = node
                    .ancestors()
                    .filter_map(|a| a.attribute("name"))
                    .next()
                    .map_or(String::new(), |n| format!(" (in {n})"));
                return Some(format!(
                    "line {}: <{} {name}=\"{value}\">{owner}: {}",
                    at.row,
                    node.tag_name().name(),
                    if name == "rgba" {
                        "needs four numbers"
                    } else if vectors.contains(&name) {
                        "needs three numbers"
                    } else {
                        "needs a number"
                    }
                ));
            }
        }
    }
    None
}

/// Largest angle an `rpy` may hold (radians): beyond it the turn is round-off.
const MAX_ANGLE: f64 = 1e6;

/// An `<origin>` must be finite, its `xyz` within the points' ±1e75 and its `rpy`
/// within ±1e6 rad (a NaN or 1e308 there made every distance NaN, read as free).
fn check_origin(p: &urdf_rs::Pose) -> Result<(), String> {
    let (xyz, rpy) = (p.xyz.0, p.rpy.0);
    let xyz_ok = xyz
        .iter()
        .all(|c| c.is_finite() && c.abs() <= crate::shape::MAX_COORDINATE);
    let rpy_ok = rpy.iter().all(|a| a.is_finite() && a.abs() <= MAX_ANGLE);
    if xyz_ok && rpy_ok {
        Ok(())
    } else {
        Err(format!(
            "xyz=\"{:?}\" rpy=\"{:?}\" must be finite (xyz within ±1e75, rpy within ±1e6 rad)",
            xyz, rpy
        ))
    }
}

/// `xyz` and fixed-axis `rpy` (roll about x, then pitch about y, then yaw about z).
pub(super) fn pose_of(p: &urdf_rs::Pose) -> Pose {
    let [r, pi, y] = p.rpy.0;
    Pose::new(
        DVec3::from_array(p.xyz.0),
        DQuat::from_euler(EulerRot::ZYX, y, pi, r),
    )
}

/// Resolves a mesh file name: `package://pkg/a/b.stl` by the longest suffix of
/// `pkg/a/b.stl` that exists under the package root (by default each folder above the
/// URDF, nearest first); `file://` and plain paths relative to the URDF's folder.
pub fn resolve_mesh(name: &str, urdf: &Path, package_root: Option<&Path>) -> Option<PathBuf> {
    let base = urdf.parent().unwrap_or(Path::new("."));
    if let Some(rest) = name.strip_prefix("package://") {
        let parts: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
        let roots: Vec<PathBuf> = match package_root {
            Some(root) => vec![root.to_path_buf()],
            None => base.ancestors().map(Path::to_path_buf).collect(),
        };
        for root in roots {
            for skip in 0..parts.len() {
                let candidate = parts[skip..].iter().fold(root.clone(), |p, s| p.join(s));
                if candidate.is_file() {
                    return Some(candidate);
                }
            }
        }
        return None;
    }
    let path = Path::new(name.strip_prefix("file://").unwrap_or(name));
    let full = if path.is_absolute() {
        path.to_path_buf()
    } else {
        base.join(path)
    };
    full.is_file().then_some(full)
}

/// [`resolve_mesh`], or a refusal that says where it looked and, for a `package://`
/// name, that the fix is usually the package root (`collidescope robot --package-root
/// DIR`): a URDF copied away from its package is the common cause.
pub fn find_mesh(name: &str, urdf: &Path, package_root: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(path) = resolve_mesh(name, urdf, package_root) {
        return Ok(path);
    }
    let base = urdf.parent().unwrap_or(Path::new("."));
    let Some(rest) = name.strip_prefix("package://") else {
        let path = Path::new(name.strip_prefix("file://").unwrap_or(name));
        return Err(format!(
            "the mesh {name} was not found (no file {})",
            base.join(path).display()
        ));
    };
    let package = rest.split('/').find(|s| !s.is_empty()).unwrap_or(rest);
    let looked = match package_root {
        Some(root) => format!("under the package root {}", root.display()),
        None => format!(
            "under {} or any folder above it",
            if base.as_os_str().is_empty() {
                Path::new(".")
            } else {
                base
            }
            .display()
        ),
    };
    Err(format!(
        "the mesh {name} was not found {looked} (every tail of {rest} was tried); give \
         --package-root DIR, DIR the folder that holds the package '{package}' (or any \
         tail of its path)"
    ))
}

/// The URDF text without `<texture/>` elements that name no file: ROS's parser
/// (urdfdom) accepts them (iCub's and Romeo's URDFs have them), urdf-rs does not, and
/// materials play no part in collision.
fn without_empty_textures(text: &str) -> std::borrow::Cow<'_, str> {
    let Ok(doc) = roxmltree::Document::parse(text) else {
        return text.into();
    };
    let empty: Vec<std::ops::Range<usize>> = doc
        .descendants()
        .filter(|n| n.has_tag_name("texture") && n.attribute("filename").is_none())
        .map(|n| n.range())
        .collect();
    if empty.is_empty() {
        return text.into();
    }
    let mut kept = String::with_capacity(text.len());
    let mut at = 0;
    for range in empty {
        kept.push_str(&text[at..range.start]);
        at = range.end;
    }
    kept.push_str(&text[at..]);
    kept.into()
}

impl RobotModel {
    /// Loads `urdf`, meshes resolved against `package_root` (see [`resolve_mesh`]),
    /// every link as its convex shape ([`CollisionMode::Hull`]).
    pub fn load(urdf: &Path, package_root: Option<&Path>) -> Result<Self, String> {
        Self::load_as(urdf, package_root, CollisionMode::Hull)
    }

    /// Loads `urdf` as [`RobotModel::load`] does, and in [`CollisionMode::Mesh`] each
    /// link's meshes as meshes too ([`LinkShape::mesh`]; the convex shapes stay, for the
    /// broad phase and the hull checks). A mesh edge shared by three or more triangles
    /// is kept joining none of them, with a warning naming the file and the edge.
    pub fn load_as(
        urdf: &Path,
        package_root: Option<&Path>,
        collision: CollisionMode,
    ) -> Result<Self, String> {
        let file = urdf.display();
        let bytes = std::fs::read(urdf).map_err(|e| format!("{file}: cannot read: {e}"))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1;
            format!("{file}: byte {at} (line {line}) is not UTF-8: not a URDF")
        })?;
        let text = without_empty_textures(&text);
        // XML roxmltree does not take (a DTD) is left to urdf-rs.
        if roxmltree::Document::parse(&text).is_ok() {
            if let Some(place) = urdf_fault(&text) {
                return Err(format!("{file}: {place}"));
            }
        }
        let robot = urdf_rs::read_from_string(&text).map_err(|e| match urdf_fault(&text) {
            Some(place) => format!("{file}: {place}"),
            None => format!("{file}: {e}"),
        })?;
        let mut warnings = Vec::new();
        let link_names: Vec<String> = robot.links.iter().map(|l| l.name.clone()).collect();
        let index: HashMap<&str, usize> = link_names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str(), i))
            .collect();
        if index.len() != link_names.len() {
            return Err(format!("{file}: two links share a name"));
        }
        let link_of = |name: &str, joint: &str| {
            index.get(name).copied().ok_or_else(|| {
                format!("{file}: joint {joint} names the link {name}, which does not exist")
            })
        };
        let mut joints = Vec::new();
        for j in &robot.joints {
            let kind = match &j.joint_type {
                urdf_rs::JointType::Fixed => JointKind::Fixed,
                urdf_rs::JointType::Revolute => JointKind::Revolute,
                urdf_rs::JointType::Continuous => JointKind::Continuous,
                urdf_rs::JointType::Prismatic => JointKind::Prismatic,
                other => {
                    warnings.push(format!(
                        "joint {}: type {other:?} is held at its zero pose",
                        j.name
                    ));
                    JointKind::Fixed
                }
            };
            check_origin(&j.origin)
                .map_err(|e| format!("{file}: joint {}: <origin> {e}", j.name))?;
            let axis = DVec3::from_array(j.axis.xyz.0);
            if kind != JointKind::Fixed && !(axis.is_finite() && axis.length() > 0.0) {
                return Err(format!(
                    "{file}: joint {}: the axis {axis} is not a direction",
                    j.name
                ));
            }
            let limits = matches!(kind, JointKind::Revolute | JointKind::Prismatic)
                .then_some((j.limit.lower, j.limit.upper));
            if let Some((lower, upper)) = limits {
                // A NaN or infinite limit would make every sampled configuration NaN.
                if !(lower.is_finite() && upper.is_finite() && lower <= upper) {
                    return Err(format!(
                        "{file}: joint {}: <limit lower=\"{lower}\" upper=\"{upper}\"> needs finite \
                         bounds with lower ≤ upper",
                        j.name
                    ));
                }
            }
            joints.push(RobotJoint {
                name: j.name.clone(),
                kind,
                parent: link_of(&j.parent.link, &j.name)?,
                child: link_of(&j.child.link, &j.name)?,
                origin: pose_of(&j.origin),
                axis: axis.normalize_or_zero(),
                limits,
                mimic: None,
            });
        }
        let joint_index: HashMap<String, usize> = joints
            .iter()
            .enumerate()
            .map(|(i, j)| (j.name.clone(), i))
            .collect();
        for (i, j) in robot.joints.iter().enumerate() {
            if let Some(m) = &j.mimic {
                // MoveIt reports such a mimic and moves the joint on its own.
                let Some(&leader) = joint_index.get(&m.joint) else {
                    warnings.push(format!(
                        "joint {} mimics {}, which does not exist: it moves on its own",
                        j.name, m.joint
                    ));
                    continue;
                };
                let (multiplier, offset) = (m.multiplier.unwrap_or(1.0), m.offset.unwrap_or(0.0));
                if !(multiplier.is_finite() && offset.is_finite()) {
                    return Err(format!(
                        "{file}: joint {}: <mimic multiplier=\"{multiplier}\" offset=\"{offset}\"> \
                         must be finite",
                        j.name
                    ));
                }
                joints[i].mimic = Some((leader, multiplier, offset));
            }
        }
        let (root, order) =
            tree_order(&joints, link_names.len()).map_err(|e| format!("{file}: {e}"))?;
        let actuated = (0..joints.len())
            .filter(|&i| joints[i].kind != JointKind::Fixed && joints[i].mimic.is_none())
            .collect();
        let mut shapes = Vec::new();
        for (i, link) in robot.links.iter().enumerate() {
            if link.collision.is_empty() {
                continue;
            }
            let at_link = |e: String| format!("{file}: link {}: {e}", link.name);
            let (mut shape, mut offset) = link_shape(link, urdf, package_root).map_err(at_link)?;
            let mut mesh = None;
            if collision == CollisionMode::Mesh {
                let mut fins = Vec::new();
                if let Some((composite, frame)) =
                    link_composite(link, urdf, package_root, &mut fins).map_err(at_link)?
                {
                    if let Some(origin) = frame {
                        // A lone mesh keeps its file's frame: its hull, at its origin.
                        shape = composite.composite.hull().clone();
                        offset = origin;
                    }
                    mesh = Some(composite);
                }
                warnings.extend(fins.into_iter().map(|w| format!("link {}: {w}", link.name)));
            }
            shapes.push(LinkShape {
                link: i,
                name: link.name.clone(),
                shape,
                offset,
                mesh,
            });
        }
        let visuals = load_visuals(&robot, urdf, package_root);
        Ok(Self {
            name: robot.name,
            link_names,
            joints,
            order,
            root,
            shapes,
            collision,
            actuated,
            warnings,
            visuals,
        })
    }

    /// The actuated joints' names, in order.
    pub fn actuated_names(&self) -> Vec<String> {
        self.actuated
            .iter()
            .map(|&j| self.joints[j].name.clone())
            .collect()
    }
}

/// The root link and the joints in parent-first order; a link with two parents, or no
/// root, is an error.
fn tree_order(joints: &[RobotJoint], links: usize) -> Result<(usize, Vec<usize>), String> {
    let mut parent_of: Vec<Option<usize>> = vec![None; links];
    for (i, j) in joints.iter().enumerate() {
        if let Some(other) = parent_of[j.child] {
            return Err(format!(
                "link {} is the child of two joints ({} and {}): a joint cycle",
                j.child, joints[other].name, j.name
            ));
        }
        parent_of[j.child] = Some(i);
    }
    if links == 0 {
        return Err("the robot declares no links".into());
    }
    let roots: Vec<usize> = (0..links).filter(|&l| parent_of[l].is_none()).collect();
    let &[root] = roots.as_slice() else {
        return Err(if roots.is_empty() {
            "every link has a parent: the joints form a cycle".into()
        } else {
            format!(
                "{} links have no parent (the tree must have one root)",
                roots.len()
            )
        });
    };
    let mut order = Vec::with_capacity(joints.len());
    let mut frontier = vec![root];
    while let Some(link) = frontier.pop() {
        for (i, j) in joints.iter().enumerate() {
            if j.parent == link {
                order.push(i);
                frontier.push(j.child);
            }
        }
    }
    if order.len() != joints.len() {
        return Err("some joints are not reachable from the root: a joint cycle".into());
    }
    Ok((root, order))
}

/// A link's convex shape and its frame in the link's, built as a scene's shapes are
/// ([`build_shape_spec`]) from the link's [`ShapeSpec`] ([`link_spec`]).
fn link_shape(
    link: &urdf_rs::Link,
    urdf: &Path,
    root: Option<&Path>,
) -> Result<(Shape, Pose), String> {
    let (spec, offset) = link_spec(link, urdf, root)?;
    // Mesh files are read (resolved against the URDF) into the spec's points.
    let shape = build_shape_spec(&spec, Path::new(""))?;
    Ok((shape, offset))
}

/// A link's collision geometry as a scene's shape specification, and its frame in the
/// link's: a lone box, sphere, cylinder or capsule as itself at the element's
/// `<origin>`; otherwise the hull of every box corner and mesh vertex (each element's
/// `<origin>` applied) as a `Polytope`, and with spheres, cylinders or capsules among
/// the elements, a `UnionHull` of that polytope and those parts at their origins.
fn link_spec(
    link: &urdf_rs::Link,
    urdf: &Path,
    root: Option<&Path>,
) -> Result<(ShapeSpec, Pose), String> {
    // URDF cylinders and capsules stand along z, ours along y.
    let z_up = Pose::new(
        DVec3::ZERO,
        DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2),
    );
    if let [only] = link.collision.as_slice() {
        check_origin(&only.origin).map_err(|e| format!("collision <origin> {e}"))?;
        let origin = pose_of(&only.origin);
        let kept = match &only.geometry {
            urdf_rs::Geometry::Box { size } => Some((
                ShapeSpec::Box {
                    half_extents: (DVec3::from_array(size.0) * 0.5).to_array(),
                },
                origin,
            )),
            urdf_rs::Geometry::Sphere { radius } => {
                Some((ShapeSpec::Sphere { radius: *radius }, origin))
            }
            urdf_rs::Geometry::Cylinder { radius, length } => Some((
                ShapeSpec::Cylinder {
                    radius: *radius,
                    half_height: length * 0.5,
                },
                origin.then_local(&z_up),
            )),
            urdf_rs::Geometry::Capsule { radius, length } => Some((
                ShapeSpec::Capsule {
                    radius: *radius,
                    half_height: length * 0.5,
                },
                origin.then_local(&z_up),
            )),
            urdf_rs::Geometry::Mesh { .. } => None,
        };
        if let Some(kept) = kept {
            return Ok(kept);
        }
    }
    // Boxes and meshes give points; curved parts stay whole, placed in the link.
    let mut points = Vec::new();
    let mut curved: Vec<MemberSpec> = Vec::new();
    for (k, c) in link.collision.iter().enumerate() {
        let element = c.name.clone().unwrap_or_else(|| format!("collision {k}"));
        check_origin(&c.origin).map_err(|e| format!("{element} <origin> {e}"))?;
        let origin = pose_of(&c.origin);
        let mut part = |shape: ShapeSpec, pose: Pose| -> Result<(), String> {
            // Refused here, where the element can be named.
            build_shape_spec(&shape, Path::new("")).map_err(|e| format!("{element}: {e}"))?;
            curved.push(MemberSpec {
                shape,
                translation: pose.translation.to_array(),
                rotation: RotationSpec::Quaternion(pose.rotation.to_array()),
            });
            Ok(())
        };
        let local: Vec<DVec3> = match &c.geometry {
            urdf_rs::Geometry::Box { size } => {
                let h = DVec3::from_array(size.0) * 0.5;
                (0..8)
                    .map(|i| {
                        DVec3::new(
                            if i & 1 == 0 { -h.x } else { h.x },
                            if i & 2 == 0 { -h.y } else { h.y },
                            if i & 4 == 0 { -h.z } else { h.z },
                        )
                    })
                    .collect()
            }
            urdf_rs::Geometry::Mesh { filename, scale } => {
                let path =
                    find_mesh(filename, urdf, root).map_err(|e| format!("{element}: {e}"))?;
                let scale = scale
                    .as_ref()
                    .map_or(DVec3::ONE, |s| DVec3::from_array(s.0));
                crate::mesh::points(&path)
                    .map_err(|e| format!("{element}: {e}"))?
                    .into_iter()
                    .map(|p| p * scale)
                    .collect()
            }
            urdf_rs::Geometry::Sphere { radius } => {
                part(ShapeSpec::Sphere { radius: *radius }, origin)?;
                Vec::new()
            }
            urdf_rs::Geometry::Cylinder { radius, length } => {
                let shape = ShapeSpec::Cylinder {
                    radius: *radius,
                    half_height: length * 0.5,
                };
                part(shape, origin.then_local(&z_up))?;
                Vec::new()
            }
            urdf_rs::Geometry::Capsule { radius, length } => {
                let shape = ShapeSpec::Capsule {
                    radius: *radius,
                    half_height: length * 0.5,
                };
                part(shape, origin.then_local(&z_up))?;
                Vec::new()
            }
        };
        points.extend(
            local
                .into_iter()
                .map(|p| origin.transform_point(p).to_array()),
        );
    }
    let hull = (!points.is_empty()).then_some(ShapeSpec::hull_of(points));
    if curved.is_empty() {
        let hull = hull.ok_or("no collision element has points")?;
        return Ok((hull, Pose::IDENTITY));
    }
    // The hull of the union: its support is the largest of the parts' supports.
    let mut members = curved;
    if let Some(hull) = hull {
        members.insert(
            0,
            MemberSpec {
                shape: hull,
                translation: [0.0; 3],
                rotation: RotationSpec::Quaternion(DQuat::IDENTITY.to_array()),
            },
        );
    }
    Ok((ShapeSpec::UnionHull { members }, Pose::IDENTITY))
}

/// A mesh element's triangles (its `scale` applied), its file (absolute), its scale.
fn element_triangles(
    filename: &str,
    scale: Option<&urdf_rs::Vec3>,
    urdf: &Path,
    root: Option<&Path>,
) -> Result<(Vec<[DVec3; 3]>, PathBuf, DVec3), String> {
    let path = find_mesh(filename, urdf, root)?;
    let path = std::fs::canonicalize(&path).unwrap_or(path);
    let scale = scale.map_or(DVec3::ONE, |s| DVec3::from_array(s.0));
    let triangles = crate::mesh::load_triangles(&path)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|t| t.map(|p| p * scale))
        .collect();
    Ok((triangles, path, scale))
}

/// A mesh of `triangles` (a soup: three vertices each, welded by the mesh), keeping any
/// edge of three or more triangles with a warning naming `file` and the edge.
fn soup_mesh(
    triangles: &[[DVec3; 3]],
    file: &str,
    warnings: &mut Vec<String>,
) -> Result<TriMesh, String> {
    let vertices: Vec<DVec3> = triangles.iter().flatten().copied().collect();
    let indices = (0..triangles.len() as u32)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    let (mesh, fins) = TriMesh::allowing_non_manifold_edges(vertices, indices)
        .map_err(|e| format!("{file}: {e}"))?;
    if let Some(warning) = fins_warning(file, &fins) {
        warnings.push(warning);
    }
    Ok(mesh)
}

/// How many fins (edges of three or more triangles) to name in a mesh's one warning.
const FINS_NAMED: usize = 3;

/// One warning for all of a mesh file's fins (a CAD export can have dozens: one line
/// each buried the other warnings): how many, the first few named, and what is done.
fn fins_warning(file: &str, fins: &[TriMeshError]) -> Option<String> {
    let first = fins.first()?;
    let kept = "kept, each joining none of its triangles (no internal-edge cone there; \
                distances are unchanged)";
    if fins.len() == 1 {
        return Some(format!("{file}: {first}: {kept}"));
    }
    let named: Vec<String> = fins
        .iter()
        .take(FINS_NAMED)
        .map(|e| match e {
            TriMeshError::NonManifoldEdge { a, b, triangles } => format!(
                "vertices {a}-{b} in {} triangles ({})",
                triangles.len(),
                triangles
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            other => other.to_string(),
        })
        .collect();
    let more = if fins.len() > FINS_NAMED { ", ..." } else { "" };
    Some(format!(
        "{file}: {} edges each belong to three triangles or more (an edge of a surface \
         belongs to one or two), the first: {}{more}; {kept}",
        fins.len(),
        named.join("; ")
    ))
}

/// A link's geometry as MoveIt and Pinocchio check it ([`LinkComposite`]), and, for a
/// lone mesh element, its `<origin>` (the composite is then in the mesh file's frame,
/// scaled); `None` for a lone box, sphere, cylinder or capsule. Every mesh element:
/// one triangle mesh in the link's frame; with other elements, a compound of each
/// primitive whole and each mesh triangle.
fn link_composite(
    link: &urdf_rs::Link,
    urdf: &Path,
    root: Option<&Path>,
    warnings: &mut Vec<String>,
) -> Result<Option<(LinkComposite, Option<Pose>)>, String> {
    let is_mesh = |c: &urdf_rs::Collision| matches!(c.geometry, urdf_rs::Geometry::Mesh { .. });
    let element_name = |k: usize, c: &urdf_rs::Collision| {
        c.name.clone().unwrap_or_else(|| format!("collision {k}"))
    };
    if link.collision.len() == 1 && !is_mesh(&link.collision[0]) {
        return Ok(None);
    }
    if let [only] = link.collision.as_slice() {
        let urdf_rs::Geometry::Mesh { filename, scale } = &only.geometry else {
            unreachable!("a lone primitive returned above");
        };
        let element = element_name(0, only);
        let (triangles, path, scale) = element_triangles(filename, scale.as_ref(), urdf, root)
            .map_err(|e| format!("{element}: {e}"))?;
        let mut fins = Vec::new();
        let mesh = soup_mesh(&triangles, &path.display().to_string(), &mut fins)?;
        let spec = if scale == DVec3::ONE && fins.is_empty() {
            ShapeSpec::Mesh {
                path: path.display().to_string(),
                use_as: MeshUse::Mesh,
            }
        } else {
            written_spec(&mesh, !fins.is_empty())
        };
        warnings.extend(fins);
        let composite = Composite::of_mesh(mesh).map_err(|e| format!("{element}: {e}"))?;
        return Ok(Some((
            LinkComposite { composite, spec },
            Some(pose_of(&only.origin)),
        )));
    }
    let z_up = Pose::new(
        DVec3::ZERO,
        DQuat::from_rotation_x(std::f64::consts::FRAC_PI_2),
    );
    if link.collision.iter().all(is_mesh) {
        let mut all = Vec::new();
        let mut files = Vec::new();
        for (k, c) in link.collision.iter().enumerate() {
            let urdf_rs::Geometry::Mesh { filename, scale } = &c.geometry else {
                unreachable!("every element is a mesh");
            };
            let (triangles, path, _) = element_triangles(filename, scale.as_ref(), urdf, root)
                .map_err(|e| format!("{}: {e}", element_name(k, c)))?;
            let origin = pose_of(&c.origin);
            all.extend(
                triangles
                    .into_iter()
                    .map(|t| t.map(|p| origin.transform_point(p))),
            );
            files.push(path.display().to_string());
        }
        let before = warnings.len();
        let mesh = soup_mesh(&all, &files.join(" + "), warnings)?;
        let spec = written_spec(&mesh, warnings.len() > before);
        let composite = Composite::of_mesh(mesh).map_err(|e| e.to_string())?;
        return Ok(Some((LinkComposite { composite, spec }, None)));
    }
    // A compound: each primitive whole, each mesh triangle a part.
    let mut members = Vec::new();
    for (k, c) in link.collision.iter().enumerate() {
        let element = element_name(k, c);
        let origin = pose_of(&c.origin);
        let mut whole = |shape: ShapeSpec, pose: Pose| {
            members.push(MemberSpec {
                shape,
                translation: pose.translation.to_array(),
                rotation: RotationSpec::Quaternion(pose.rotation.to_array()),
            })
        };
        match &c.geometry {
            urdf_rs::Geometry::Box { size } => whole(
                ShapeSpec::Box {
                    half_extents: (DVec3::from_array(size.0) * 0.5).to_array(),
                },
                origin,
            ),
            urdf_rs::Geometry::Sphere { radius } => {
                whole(ShapeSpec::Sphere { radius: *radius }, origin)
            }
            urdf_rs::Geometry::Cylinder { radius, length } => whole(
                ShapeSpec::Cylinder {
                    radius: *radius,
                    half_height: length * 0.5,
                },
                origin.then_local(&z_up),
            ),
            urdf_rs::Geometry::Capsule { radius, length } => whole(
                ShapeSpec::Capsule {
                    radius: *radius,
                    half_height: length * 0.5,
                },
                origin.then_local(&z_up),
            ),
            urdf_rs::Geometry::Mesh { filename, scale } => {
                let (triangles, _, _) = element_triangles(filename, scale.as_ref(), urdf, root)
                    .map_err(|e| format!("{element}: {e}"))?;
                for t in triangles {
                    let corners = t.map(|p| origin.transform_point(p));
                    // A triangle collapsed to a segment or a point adds nothing.
                    if (corners[1] - corners[0])
                        .cross(corners[2] - corners[0])
                        .length_squared()
                        > 0.0
                    {
                        whole(
                            ShapeSpec::hull_of(corners.map(|p| p.to_array()).to_vec()),
                            Pose::IDENTITY,
                        );
                    }
                }
            }
        }
    }
    let parts = members
        .iter()
        .map(|m| {
            let shape = build_shape_spec(&m.shape, Path::new(""))?;
            let RotationSpec::Quaternion(q) = m.rotation else {
                unreachable!("written as a quaternion above");
            };
            let rotation = glam::DMat3::from_quat(DQuat::from_array(q));
            Ok(Part {
                shape,
                pose: RelativePose::from_matrix(rotation, DVec3::from_array(m.translation)),
            })
        })
        .collect::<Result<Vec<Part>, String>>()?;
    let composite = Composite::of_parts(parts).map_err(|e| e.to_string())?;
    let spec = ShapeSpec::Compound { parts: members };
    Ok(Some((LinkComposite { composite, spec }, None)))
}

/// A link's mesh as a scene file writes it: a `TriMesh`, or, when it has edges of three
/// or more triangles (which a scene's `TriMesh` refuses), a `Compound` with one
/// `Polytope` per triangle (part k is triangle k: the same distances, without internal
/// edges), so that a pair scene `robot --pair-scene` writes opens again.
fn written_spec(mesh: &TriMesh, has_fins: bool) -> ShapeSpec {
    if !has_fins {
        return trimesh_spec(mesh);
    }
    let parts = (0..mesh.triangle_count())
        .map(|t| MemberSpec {
            shape: ShapeSpec::hull_of(mesh.corners(t).map(|p| p.to_array()).to_vec()),
            translation: [0.0; 3],
            rotation: RotationSpec::Quaternion(DQuat::IDENTITY.to_array()),
        })
        .collect();
    ShapeSpec::Compound { parts }
}

/// A mesh written out as a scene's `TriMesh`.
fn trimesh_spec(mesh: &TriMesh) -> ShapeSpec {
    ShapeSpec::TriMesh {
        vertices: mesh.vertices().iter().map(|p| p.to_array()).collect(),
        triangles: mesh.triangles().to_vec(),
        flags: 0,
    }
}
