//! Poses as Python hands them over, read without text: a 4x4 numpy matrix, an `(R, t)`
//! pair, a Pinocchio `SE3` or Coal `Transform3s` (their rotation and translation), or
//! `None` (the identity); and stacks of 4x4 matrices for batches. Every refusal names
//! the argument and the entry at fault (NaN, a non-rigid rotation, a last row that is
//! not 0 0 0 1, an offset beyond the size cap, a complex or text entry).

use collidescope::pose::{rigid_rotation_within, Pose};

/// How far from orthonormal a rotation from Python may be: an f32 pose (a float32
/// `SE3`, 5e-8) or a matrix printed to 6 decimals (1e-6) is the rotation its writer
/// meant, and is replaced by its nearest rotation (Higham's polar iteration); one
/// orthonormal to f64 rounding (Coal's, Pinocchio's) is kept to the bit.
const ROTATION_TOLERANCE: f64 = 1e-5;
use collidescope::DVec3;
use numpy::{
    PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// A pose from its 4x4 entries (row-major), checked: finite, rigid, last row 0 0 0 1,
/// offset within the size cap. `what` names the argument in messages.
pub fn pose_from_matrix(m: &[f64], what: &str) -> PyResult<Pose> {
    checked_pose(m).map_err(|why| PyValueError::new_err(format!("{what}: {why}")))
}

/// [`pose_from_matrix`]'s check, saying what is wrong without naming the argument: a
/// batch names a pose only when it is refused (formatting a name for every pose would
/// cost more than checking it).
pub fn checked_pose(m: &[f64]) -> Result<Pose, String> {
    if let Some(k) = m.iter().position(|v| !v.is_finite()) {
        return Err(format!(
            "entry [{}, {}] is {} (a pose is finite)",
            k / 4,
            k % 4,
            m[k]
        ));
    }
    if m[12..16] != [0.0, 0.0, 0.0, 1.0] {
        return Err(format!(
            "the last row of a rigid 4x4 pose is [0, 0, 0, 1], got {:?}",
            &m[12..16]
        ));
    }
    checked_parts(
        [[m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]],
        [m[3], m[7], m[11]],
    )
}

/// A pose from a rotation's rows and a translation, checked as [`checked_pose`].
pub fn pose_from_parts(rows: [[f64; 3]; 3], t: [f64; 3], what: &str) -> PyResult<Pose> {
    checked_parts(rows, t).map_err(|why| PyValueError::new_err(format!("{what}: {why}")))
}

fn checked_parts(rows: [[f64; 3]; 3], t: [f64; 3]) -> Result<Pose, String> {
    if let Some(v) = rows
        .iter()
        .flatten()
        .chain(t.iter())
        .find(|v| !v.is_finite())
    {
        return Err(format!("holds {v} (a pose is finite)"));
    }
    let rotation = rigid_rotation_within(rows, ROTATION_TOLERANCE).map_err(|e| {
        format!(
            "not a rigid pose: {e}; re-orthonormalise it (e.g. \
             scipy.spatial.transform.Rotation.from_matrix(R).as_matrix())"
        )
    })?;
    let translation = DVec3::from_array(t);
    if let Some(why) = collidescope::solver::beyond_size_cap(translation) {
        return Err(format!("its translation {why}"));
    }
    Ok(Pose::from_matrix(translation, rotation))
}

/// The numbers of an array-like as f64, refusing what numpy would silently mangle
/// (complex numbers lose their imaginary part, text and objects have no number).
pub fn float_entries(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<(Vec<usize>, Vec<f64>)> {
    if let Ok(array) = obj.extract::<PyReadonlyArrayDyn<'_, f64>>() {
        let shape = array.shape().to_vec();
        // In logical (row-major) order whatever the layout: `as_slice` of a Fortran
        // array is its memory, columns first.
        let values = match array.as_slice() {
            Ok(s) if array.is_c_contiguous() => s.to_vec(),
            _ => array.as_array().iter().copied().collect(),
        };
        return Ok((shape, values));
    }
    let py = obj.py();
    let numpy = py.import(intern!(py, "numpy"))?;
    let array = numpy
        .call_method1(intern!(py, "asarray"), (obj,))
        .map_err(|e| {
            PyTypeError::new_err(format!(
                "{what}: expected numbers (a numpy array or nested lists), got {} ({e})",
                type_name(obj)
            ))
        })?;
    let untyped = array.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!("{what}: expected numbers, got {}", type_name(obj)))
    })?;
    let kind = untyped.dtype().kind();
    match kind {
        b'f' | b'i' | b'u' => {}
        b'c' => {
            return Err(PyTypeError::new_err(format!(
                "{what}: complex numbers are not coordinates (got dtype {})",
                untyped.dtype()
            )))
        }
        b'b' => {
            return Err(PyTypeError::new_err(format!(
                "{what}: booleans are not coordinates"
            )))
        }
        _ => {
            return Err(PyTypeError::new_err(format!(
                "{what}: expected numbers, got {} of dtype {} (text or objects)",
                type_name(obj),
                untyped.dtype()
            )))
        }
    }
    let converted = array.call_method1(intern!(py, "astype"), (intern!(py, "float64"),))?;
    let array = converted.extract::<PyReadonlyArrayDyn<'_, f64>>()?;
    let shape = array.shape().to_vec();
    let values = array.as_array().iter().copied().collect();
    Ok((shape, values))
}

pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// One pose: None, a 4x4 matrix, `(R, t)`, or an object with a rotation and a
/// translation (Pinocchio's `SE3`: `.rotation`, `.translation`; Coal's `Transform3s`:
/// `getRotation()`, `getTranslation()`).
pub fn pose_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Pose> {
    if obj.is_none() {
        return Ok(Pose::IDENTITY);
    }
    // The fast path: a contiguous float64 4x4 array, read in place (the entries are
    // copied out at once, with the GIL held: no Rust borrow of them can be live).
    if let Ok(array) = obj.cast::<PyArray2<f64>>() {
        if array.shape() == [4, 4] && array.is_c_contiguous() {
            // SAFETY: a contiguous f64 array read under the GIL, copied before return.
            let entries: [f64; 16] = unsafe { array.as_slice() }
                .ok()
                .and_then(|s| s.try_into().ok())
                .unwrap_or([f64::NAN; 16]);
            return pose_from_matrix(&entries, what);
        }
    }
    if (obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>()) && obj.len()? == 2 {
        let r = float_entries(&obj.get_item(0)?, &format!("{what} rotation"))?;
        let t = float_entries(&obj.get_item(1)?, &format!("{what} translation"))?;
        return rotation_translation(r, t, what);
    }
    for (rotation, translation, call) in [
        ("getRotation", "getTranslation", true),
        ("rotation", "translation", false),
    ] {
        if obj.hasattr(rotation)? && obj.hasattr(translation)? {
            let mut r = obj.getattr(rotation)?;
            let mut t = obj.getattr(translation)?;
            if call && r.is_callable() {
                r = r.call0()?;
                t = t.call0()?;
            }
            let r = float_entries(&r, &format!("{what} rotation"))?;
            let t = float_entries(&t, &format!("{what} translation"))?;
            return rotation_translation(r, t, what);
        }
    }
    let array_like = obj.cast::<PyUntypedArray>().is_ok()
        || obj.is_instance_of::<PyTuple>()
        || obj.is_instance_of::<PyList>();
    let (shape, values) = if array_like {
        // Said as the array is wrong (complex, text), not as some other kind of pose.
        float_entries(obj, what)?
    } else {
        float_entries(obj, what).map_err(|_| {
            PyTypeError::new_err(format!(
                "{what}: a pose is a 4x4 matrix, (R, t), a pinocchio.SE3, a \
                 coal.Transform3s or None, got {}",
                type_name(obj)
            ))
        })?
    };
    if shape != [4, 4] {
        return Err(PyValueError::new_err(format!(
            "{what}: a pose is a 4x4 matrix or (R, t), got an array of shape {shape:?}"
        )));
    }
    pose_from_matrix(&values, what)
}

fn rotation_translation(
    (r_shape, r): (Vec<usize>, Vec<f64>),
    (t_shape, t): (Vec<usize>, Vec<f64>),
    what: &str,
) -> PyResult<Pose> {
    if r_shape != [3, 3] {
        return Err(PyValueError::new_err(format!(
            "{what}: a rotation is 3x3, got shape {r_shape:?}"
        )));
    }
    if t.len() != 3 {
        return Err(PyValueError::new_err(format!(
            "{what}: a translation has 3 numbers, got shape {t_shape:?}"
        )));
    }
    pose_from_parts(
        [[r[0], r[1], r[2]], [r[3], r[4], r[5]], [r[6], r[7], r[8]]],
        [t[0], t[1], t[2]],
        what,
    )
}

/// A stack of 4x4 poses, `(..., 4, 4)`: the leading shape and the poses, each checked
/// and named by its index in messages (`poses[3, 1]`).
pub fn pose_stack(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<(Vec<usize>, Vec<Pose>)> {
    let (shape, values) = float_entries(obj, what)?;
    if shape.len() < 2 || shape[shape.len() - 2..] != [4, 4] {
        return Err(PyValueError::new_err(format!(
            "{what}: expected an array of 4x4 poses (shape (..., 4, 4)), got shape {shape:?}"
        )));
    }
    let lead = shape[..shape.len() - 2].to_vec();
    let poses = values
        .chunks_exact(16)
        .enumerate()
        .map(|(k, m)| {
            checked_pose(m).map_err(|why| {
                PyValueError::new_err(format!("{what}[{}]: {why}", index_text(k, &lead)))
            })
        })
        .collect::<PyResult<Vec<Pose>>>()?;
    Ok((lead, poses))
}

/// A flat index as the multi-index of an array of shape `lead` ("3, 1").
pub fn index_text(mut k: usize, lead: &[usize]) -> String {
    let mut parts = vec![0; lead.len()];
    for (slot, &n) in parts.iter_mut().zip(lead).rev() {
        *slot = k % n.max(1);
        k /= n.max(1);
    }
    parts
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
