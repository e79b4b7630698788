//! The walk over the body tree: frames composed (and joints placed at a keyframe, as
//! MuJoCo's kinematics does), every geom made a body in the world, planes made slabs, and
//! the pairs MuJoCo's collision filter tests.

use std::collections::HashMap;
use std::path::Path;

use glam::{DMat3, DQuat, DVec3};
use roxmltree::{Document, Node};

use super::settings::{Compiler, Defaults};
use super::{located, numbers, vector, GeomInfo, MjcfModel};
use crate::scene::{BodySpec, RotationSpec, ShapeSpec};

/// A rigid frame: rotation then translation (world from local).
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) rotation: DQuat,
    pub(super) translation: DVec3,
}

impl Frame {
    pub(super) const IDENTITY: Frame = Frame {
        rotation: DQuat::IDENTITY,
        translation: DVec3::ZERO,
    };

    fn then(&self, local: Frame) -> Frame {
        Frame {
            rotation: (self.rotation * local.rotation).normalize(),
            translation: self.translation + self.rotation * local.translation,
        }
    }
}

/// A walk's pass over a body: MuJoCo numbers a body's geoms before its children's.
#[derive(Clone, Copy)]
pub(super) enum Pass {
    Geoms,
    Bodies,
}

/// The walk over the bodies: what has been read so far.
pub(super) struct Walk<'a> {
    /// The keyframe's joint positions, when one was asked for, and how many the joints
    /// walked so far took.
    pub(super) qpos: Option<Vec<f64>>,
    pub(super) qpos_at: usize,
    pub(super) compiler: &'a Compiler,
    pub(super) defaults: &'a Defaults,
    pub(super) meshes: &'a HashMap<String, Vec<DVec3>>,
    pub(super) model: MjcfModel,
    pub(super) body_names: Vec<String>,
    pub(super) body_parent: Vec<usize>,
    /// Whether the body has a joint (else it is welded to its parent).
    pub(super) body_has_joint: Vec<bool>,
    pub(super) geom_body: Vec<usize>,
    /// `(contype, conaffinity)` per imported geom.
    pub(super) geom_filter: Vec<(u32, u32)>,
    pub(super) geom_names: HashMap<String, usize>,
    /// Geom elements met so far (MuJoCo's geom ids).
    pub(super) geom_count: usize,
    /// A bounding sphere per imported geom (world centre, radius): the pairs' order.
    pub(super) bounds: Vec<(DVec3, f64)>,
    /// The plane geoms: their index among the imported geoms and their frame (the plane
    /// is the frame's xy-plane, its normal the frame's z axis).
    pub(super) planes: Vec<(usize, Frame)>,
}

impl Walk<'_> {
    /// A body's contents in MuJoCo's order: its own geoms first (those inside its
    /// `<frame>`s included, in document order), then its child bodies, depth first; so
    /// geoms are numbered as MuJoCo numbers them.
    fn children(
        &mut self,
        path: &Path,
        doc: &Document,
        node: Node,
        frame: Frame,
        body: usize,
        childclass: &str,
    ) -> Result<(), String> {
        self.walk(Pass::Geoms, path, doc, node, frame, body, childclass)?;
        self.walk(Pass::Bodies, path, doc, node, frame, body, childclass)
    }

    /// One pass over `node`'s children (through its frames): its geoms, or its bodies.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn walk(
        &mut self,
        pass: Pass,
        path: &Path,
        doc: &Document,
        node: Node,
        frame: Frame,
        body: usize,
        childclass: &str,
    ) -> Result<(), String> {
        for child in node.children().filter(Node::is_element) {
            let here = |e: String| located(path, doc, child, &e);
            match (pass, child.tag_name().name()) {
                (_, "frame") => {
                    let local = self.pose(child, None).map_err(here)?;
                    let class = child.attribute("childclass").unwrap_or(childclass);
                    self.walk(pass, path, doc, child, frame.then(local), body, class)?;
                }
                (Pass::Geoms, "geom") => self.geom(child, frame, body, childclass).map_err(here)?,
                (Pass::Geoms, "include") => {
                    return Err(here(
                        "<include> inside a body: only top-level includes are read".into(),
                    ))
                }
                // Elements that make geoms this reader does not expand: refused, never
                // dropped in silence.
                (Pass::Geoms, tag @ ("replicate" | "attach" | "composite" | "flexcomp")) => {
                    return Err(here(format!(
                        "<{tag}> is not expanded here: save the compiled model with MuJoCo's \
                         mj_saveLastXML and import that"
                    )));
                }
                (Pass::Bodies, "body") => {
                    let local = self.pose(child, None).map_err(here)?;
                    let class = child.attribute("childclass").unwrap_or(childclass);
                    let placed = self.joints(child, frame.then(local), class).map_err(here)?;
                    let index = self.body_names.len();
                    let name = child
                        .attribute("name")
                        .map_or_else(|| format!("body {index}"), str::to_string);
                    self.body_names.push(name);
                    self.body_parent.push(body);
                    let jointed = child
                        .children()
                        .any(|n| n.has_tag_name("joint") || n.has_tag_name("freejoint"));
                    self.body_has_joint.push(jointed);
                    self.children(path, doc, child, placed, index, class)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A body's frame moved by its joints at the keyframe's `qpos` (MuJoCo's
    /// `mj_kinematics`): a free joint sets the pose, a ball or hinge turns the body about
    /// the joint's anchor, a slide moves it along the axis. Without a keyframe the joints
    /// only count their coordinates, and the body stays where the file puts it.
    fn joints(&mut self, body: Node, frame: Frame, class: &str) -> Result<Frame, String> {
        let mut frame = frame;
        for joint in body
            .children()
            .filter(|n| n.has_tag_name("joint") || n.has_tag_name("freejoint"))
        {
            let joint_class = joint.attribute("class").unwrap_or(class);
            let empty = HashMap::new();
            let defaults = self.defaults.joint.get(joint_class).unwrap_or(&empty);
            let attr = |name: &str| {
                joint
                    .attribute(name)
                    .map(str::to_string)
                    .or_else(|| defaults.get(name).cloned())
            };
            let kind = if joint.has_tag_name("freejoint") {
                "free".to_string()
            } else {
                attr("type").unwrap_or_else(|| "hinge".into())
            };
            let width = match kind.as_str() {
                "free" => 7,
                "ball" => 4,
                "hinge" | "slide" => 1,
                other => {
                    return Err(format!(
                        "joint type=\"{other}\": free, ball, hinge or slide"
                    ))
                }
            };
            let at = self.qpos_at;
            self.qpos_at += width;
            let Some(qpos) = &self.qpos else {
                continue;
            };
            let Some(q) = qpos.get(at..at + width) else {
                return Err(format!(
                    "the key's qpos has {} numbers; the joints need more",
                    qpos.len()
                ));
            };
            let anchor = match attr("pos") {
                Some(p) => vector(&p, "pos")?,
                None => DVec3::ZERO,
            };
            let axis = match attr("axis") {
                Some(a) => vector(&a, "axis")?.normalize_or_zero(),
                None => DVec3::Z,
            };
            let reference = match attr("ref") {
                Some(r) => numbers(&r, "ref")?.first().copied().unwrap_or(0.0),
                None => 0.0,
            };
            let unit = |q: DQuat| {
                let n = q.length();
                if n > 0.0 && n.is_finite() {
                    Ok(q / n)
                } else {
                    Err("the key's quaternion is zero".to_string())
                }
            };
            let turn = |frame: Frame, local: DQuat| {
                let world_anchor = frame.translation + frame.rotation * anchor;
                let rotation = (frame.rotation * local).normalize();
                Frame {
                    rotation,
                    translation: world_anchor - rotation * anchor,
                }
            };
            frame = match kind.as_str() {
                "free" => Frame {
                    translation: DVec3::new(q[0], q[1], q[2]),
                    rotation: unit(DQuat::from_xyzw(q[4], q[5], q[6], q[3]))?,
                },
                "ball" => turn(frame, unit(DQuat::from_xyzw(q[1], q[2], q[3], q[0]))?),
                "hinge" => {
                    let angle = q[0] - self.angle(reference);
                    turn(frame, DQuat::from_axis_angle(axis, angle))
                }
                _ => Frame {
                    rotation: frame.rotation,
                    translation: frame.translation + frame.rotation * axis * (q[0] - reference),
                },
            };
        }
        Ok(frame)
    }

    /// An element's local pose from its attributes (or, for a geom, its defaults).
    fn pose(
        &self,
        node: Node,
        defaults: Option<&HashMap<String, String>>,
    ) -> Result<Frame, String> {
        let attr = |name: &str| {
            node.attribute(name)
                .map(str::to_string)
                .or_else(|| defaults.and_then(|d| d.get(name).cloned()))
        };
        let translation = match attr("pos") {
            Some(p) => vector(&p, "pos")?,
            None => DVec3::ZERO,
        };
        let given: Vec<&str> = ["quat", "axisangle", "euler", "xyaxes", "zaxis"]
            .into_iter()
            .filter(|a| node.attribute(*a).is_some())
            .collect();
        if given.len() > 1 {
            return Err(format!("more than one orientation: {}", given.join(", ")));
        }
        // The element's own orientation, else its class's.
        let orientation = given.first().map(|a| a.to_string()).or_else(|| {
            ["quat", "axisangle", "euler", "xyaxes", "zaxis"]
                .into_iter()
                .find(|a| defaults.is_some_and(|d| d.contains_key(*a)))
                .map(str::to_string)
        });
        let rotation = match orientation.as_deref() {
            None => DQuat::IDENTITY,
            Some(kind) => {
                let text = attr(kind).unwrap_or_default();
                self.orientation(kind, &text)?
            }
        };
        Ok(Frame {
            rotation,
            translation,
        })
    }

    fn angle(&self, value: f64) -> f64 {
        if self.compiler.degrees {
            value.to_radians()
        } else {
            value
        }
    }

    fn orientation(&self, kind: &str, text: &str) -> Result<DQuat, String> {
        let v = numbers(text, kind)?;
        let count = |n: usize| {
            if v.len() == n {
                Ok(())
            } else {
                Err(format!("{kind}=\"{text}\": {n} numbers expected"))
            }
        };
        let unit = |q: DQuat| {
            let n = q.length();
            if n > 0.0 && n.is_finite() {
                Ok(q / n)
            } else {
                Err(format!("{kind}=\"{text}\": no rotation"))
            }
        };
        match kind {
            "quat" => {
                count(4)?;
                // MuJoCo writes w first.
                unit(DQuat::from_xyzw(v[1], v[2], v[3], v[0]))
            }
            "axisangle" => {
                count(4)?;
                let axis = DVec3::new(v[0], v[1], v[2]);
                let n = axis.length();
                if !(n > 0.0 && n.is_finite()) {
                    return Err(format!("axisangle=\"{text}\": the axis is zero"));
                }
                Ok(DQuat::from_axis_angle(axis / n, self.angle(v[3])))
            }
            "euler" => {
                count(3)?;
                let mut q = DQuat::IDENTITY;
                for (k, &axis) in self.compiler.eulerseq.iter().enumerate() {
                    let turn = match axis.to_ascii_lowercase() {
                        b'x' => DQuat::from_rotation_x(self.angle(v[k])),
                        b'y' => DQuat::from_rotation_y(self.angle(v[k])),
                        _ => DQuat::from_rotation_z(self.angle(v[k])),
                    };
                    // Lower case: about the rotating frame's axis; upper case: the fixed one.
                    q = if axis.is_ascii_lowercase() {
                        q * turn
                    } else {
                        turn * q
                    };
                }
                unit(q)
            }
            "xyaxes" => {
                count(6)?;
                let x = DVec3::new(v[0], v[1], v[2]).normalize_or_zero();
                let y = DVec3::new(v[3], v[4], v[5]);
                let y = (y - x * x.dot(y)).normalize_or_zero();
                let z = x.cross(y);
                if x == DVec3::ZERO || y == DVec3::ZERO {
                    return Err(format!("xyaxes=\"{text}\": the axes are zero or parallel"));
                }
                unit(DQuat::from_mat3(&DMat3::from_cols(x, y, z)))
            }
            _ => {
                count(3)?;
                let z = DVec3::new(v[0], v[1], v[2]);
                let n = z.length();
                if !(n > 0.0 && n.is_finite()) {
                    return Err(format!("zaxis=\"{text}\": the axis is zero"));
                }
                Ok(DQuat::from_rotation_arc(DVec3::Z, z / n))
            }
        }
    }

    fn geom(
        &mut self,
        node: Node,
        frame: Frame,
        body: usize,
        childclass: &str,
    ) -> Result<(), String> {
        let class = node.attribute("class").unwrap_or(childclass);
        if class != "main" && !self.defaults.geom.contains_key(class) {
            return Err(format!("class=\"{class}\": no such default class"));
        }
        let empty = HashMap::new();
        let defaults = self.defaults.geom.get(class).unwrap_or(&empty);
        // MuJoCo's geom id: every geom counts, collision or not.
        let index = self.geom_count;
        self.geom_count += 1;
        let attr = |name: &str| {
            node.attribute(name)
                .map(str::to_string)
                .or_else(|| defaults.get(name).cloned())
        };
        let name = node
            .attribute("name")
            .map_or_else(|| format!("geom {index}"), str::to_string);
        // A geom naming a mesh is a mesh unless it says otherwise (MuJoCo infers it).
        let kind = attr("type").unwrap_or_else(|| {
            if attr("mesh").is_some() {
                "mesh".into()
            } else {
                "sphere".into()
            }
        });
        let integer = |name: &str, default: u32| -> Result<u32, String> {
            match attr(name) {
                Some(t) => t
                    .trim()
                    .parse::<u32>()
                    .map_err(|_| format!("{name}=\"{t}\": not a non-negative integer")),
                None => Ok(default),
            }
        };
        let filter = (integer("contype", 1)?, integer("conaffinity", 1)?);
        if filter == (0, 0) {
            // A visual geom: MuJoCo never collides it.
            return Ok(());
        }
        let size = match attr("size") {
            Some(s) => numbers(&s, "size")?,
            None => Vec::new(),
        };
        let size_at = |k: usize| -> Result<f64, String> {
            size.get(k)
                .copied()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("{kind} geom {name}: size needs {} numbers ≥ 0", k + 1))
        };
        let mut local = self.pose(node, Some(defaults))?;
        // `fromto`: the geom's z axis along the segment, its half length half the segment.
        let mut half_length = None;
        if let Some(text) = attr("fromto") {
            let v = numbers(&text, "fromto")?;
            if v.len() != 6 {
                return Err(format!("fromto=\"{text}\": 6 numbers expected"));
            }
            let (from, to) = (DVec3::new(v[0], v[1], v[2]), DVec3::new(v[3], v[4], v[5]));
            let axis = to - from;
            if axis.length() == 0.0 {
                return Err(format!("fromto=\"{text}\": the two ends coincide"));
            }
            local = Frame {
                rotation: DQuat::from_rotation_arc(DVec3::Z, axis.normalize()),
                translation: 0.5 * (from + to),
            };
            half_length = Some(0.5 * axis.length());
        }
        let length = |k: usize| half_length.map_or_else(|| size_at(k), Ok);
        // This project's capsules and cylinders stand along y, MuJoCo's along z.
        let (spec, along_z) = match kind.as_str() {
            "sphere" => (
                ShapeSpec::Sphere {
                    radius: size_at(0)?,
                },
                false,
            ),
            "capsule" => (
                ShapeSpec::Capsule {
                    radius: size_at(0)?,
                    half_height: length(1)?,
                },
                true,
            ),
            "cylinder" => (
                ShapeSpec::Cylinder {
                    radius: size_at(0)?,
                    half_height: length(1)?,
                },
                true,
            ),
            "ellipsoid" => (
                ShapeSpec::Ellipsoid {
                    radii: [size_at(0)?, size_at(1)?, length(2)?],
                },
                false,
            ),
            "box" => (
                ShapeSpec::Box {
                    half_extents: [size_at(0)?, size_at(1)?, length(2)?],
                },
                false,
            ),
            "mesh" => {
                let mesh = attr("mesh").ok_or("a mesh geom without a mesh")?;
                let points = self
                    .meshes
                    .get(&mesh)
                    .ok_or_else(|| format!("mesh=\"{mesh}\": no such mesh asset"))?;
                let points = points.iter().map(|p| p.to_array()).collect();
                (ShapeSpec::Polytope { points }, false)
            }
            // A half-space is not a body GJK takes: a slab under the plane stands in for
            // it, sized once every geom is known ([`Walk::place_planes`]).
            "plane" => (
                ShapeSpec::Box {
                    half_extents: [1.0; 3],
                },
                false,
            ),
            "hfield" | "sdf" => {
                let body = &self.body_names[body];
                self.model.left_out.push(format!(
                    "{name} ({kind} in {body}): not a bounded convex shape"
                ));
                return Ok(());
            }
            other => return Err(format!("type=\"{other}\": not a MuJoCo geom type")),
        };
        let world = frame.then(local);
        let mut rotation = DMat3::from_quat(world.rotation);
        if along_z {
            // Turn ours onto MuJoCo's: y to z (columns permuted, one negated: exact).
            rotation = DMat3::from_cols(rotation.x_axis, rotation.z_axis, -rotation.y_axis);
        }
        if kind == "plane" {
            self.planes.push((self.geom_body.len(), world));
        }
        // A sphere about the geom's origin (a mesh need not surround it: its farthest point).
        let (centre, radius) = (world.translation, crate::import::spec_reach(&spec));
        self.bounds.push((centre, radius));
        self.geom_names.insert(name.clone(), self.geom_body.len());
        self.geom_body.push(body);
        self.geom_filter.push(filter);
        self.model.geoms.push(GeomInfo {
            name: name.clone(),
            kind,
            body: self.body_names[body].clone(),
        });
        self.model.bodies.push(BodySpec {
            name: Some(name),
            shape: spec,
            translation: world.translation.to_array(),
            rotation: RotationSpec::Matrix(rotation.transpose().to_cols_array_2d()),
            velocity: None,
            spin: None,
        });
        Ok(())
    }

    /// Each plane as a slab whose top face is the plane: under every other geom
    /// (laterally twice the model's reach around its centre's foot on the plane, as deep
    /// as that), so that a distance to it, or a depth into it, is the one to the
    /// half-space. The notes say so.
    pub(super) fn place_planes(&mut self) {
        let solids: Vec<(DVec3, f64)> = (0..self.bounds.len())
            .filter(|k| !self.planes.iter().any(|(p, _)| p == k))
            .map(|k| self.bounds[k])
            .collect();
        let centre = if solids.is_empty() {
            DVec3::ZERO
        } else {
            solids.iter().map(|(c, _)| *c).sum::<DVec3>() / solids.len() as f64
        };
        let reach = solids
            .iter()
            .map(|(c, r)| (*c - centre).length() + r)
            .fold(0.0f64, f64::max);
        // Twice the reach: a geom sunk into the plane leaves through the top face, never
        // through a side.
        let half = (2.0 * reach).max(1e-6) * 1.01;
        for &(k, frame) in &self.planes {
            let normal = frame.rotation * DVec3::Z;
            let foot = centre - normal * normal.dot(centre - frame.translation);
            let slab_centre = foot - normal * half;
            let body = &mut self.model.bodies[k];
            body.shape = ShapeSpec::Box {
                half_extents: [half; 3],
            };
            body.translation = slab_centre.to_array();
            let rotation = DMat3::from_quat(frame.rotation);
            body.rotation = RotationSpec::Matrix(rotation.transpose().to_cols_array_2d());
            self.bounds[k] = (slab_centre, f64::INFINITY);
        }
        if !self.planes.is_empty() {
            self.model.stand_ins.push(format!(
                "each plane is a slab {:.4} wide and deep whose top face is the plane (under \
                 every other geom, so distances and depths are the half-space's)",
                2.0 * half
            ));
        }
    }

    /// The signed gap between the bounding spheres of geoms `i` and `j` (for a plane,
    /// the other's sphere above the plane): the pairs' order.
    fn gap(&self, i: usize, j: usize) -> f64 {
        let plane = |k: usize| self.planes.iter().find(|(p, _)| *p == k).map(|(_, f)| *f);
        match (plane(i), plane(j)) {
            (Some(f), None) | (None, Some(f)) => {
                let other = if plane(i).is_some() { j } else { i };
                let (c, r) = self.bounds[other];
                (f.rotation * DVec3::Z).dot(c - f.translation) - r
            }
            _ => {
                let ((ci, ri), (cj, rj)) = (self.bounds[i], self.bounds[j]);
                (ci - cj).length() - ri - rj
            }
        }
    }

    /// The body a body is welded to: itself when it has a joint (or is the world).
    fn weld(&self, mut body: usize) -> usize {
        while body != 0 && !self.body_has_joint[body] {
            body = self.body_parent[body];
        }
        body
    }

    /// MuJoCo's candidate pairs: explicit `<pair>`s first, then every two geoms its
    /// filter lets through, nearest first by their bounding spheres.
    pub(super) fn candidate_pairs(
        &self,
        excluded: &[(String, String)],
        explicit: &[(usize, usize)],
    ) -> Vec<(usize, usize)> {
        let n = self.geom_body.len();
        let mut pairs: Vec<(usize, usize)> = explicit.to_vec();
        let mut rest = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if pairs.contains(&(i, j)) || pairs.contains(&(j, i)) {
                    continue;
                }
                let (wi, wj) = (self.weld(self.geom_body[i]), self.weld(self.geom_body[j]));
                if wi == wj {
                    continue;
                }
                // A weld body and its parent's weld body, unless that is the world.
                let parent = |w: usize| self.weld(self.body_parent[w]);
                if wi != 0 && wj != 0 && (parent(wi) == wj || parent(wj) == wi) {
                    continue;
                }
                let ((ti, ai), (tj, aj)) = (self.geom_filter[i], self.geom_filter[j]);
                if ti & aj == 0 && tj & ai == 0 {
                    continue;
                }
                let (bi, bj) = (
                    &self.body_names[self.geom_body[i]],
                    &self.body_names[self.geom_body[j]],
                );
                if excluded
                    .iter()
                    .any(|(a, b)| (a == bi && b == bj) || (a == bj && b == bi))
                {
                    continue;
                }
                rest.push((self.gap(i, j), (i, j)));
            }
        }
        rest.sort_by(|a, b| a.0.total_cmp(&b.0));
        pairs.extend(rest.into_iter().map(|(_, p)| p));
        pairs
    }
}
