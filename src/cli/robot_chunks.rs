//! `collidescope robot --random N` split into chunks of configurations (`--chunk`,
//! `--reduce`: one task each on a cluster, docs/cluster.md): each chunk's answers as a
//! file, merged back into the whole run's in its order. Warm starts restart every
//! [`WARM_START_BLOCK`] configurations, so chunks start at multiples of it.

use std::path::Path;

use collidescope::bench::chunks::{self, Chunk};
use collidescope::robot::{ConfigAnswer, PairAnswer, RobotModel, SelfCollision, WARM_START_BLOCK};
use glam::DVec3;
use serde::{Deserialize, Serialize};

/// A configuration's answers as a chunk file holds them: every float by its bits, so
/// the report reads back exactly what the worker found (infinities included).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigItem {
    pairs: Vec<PairItem>,
    seconds: f64,
    kinematics_seconds: f64,
    transforms_seconds: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct PairItem {
    distance_bits: u64,
    colliding: bool,
    iterations: usize,
    seconds: f64,
    witness_bits: Option<[u64; 6]>,
    beyond_margin: bool,
    sub_pairs: usize,
}

impl From<&ConfigAnswer> for ConfigItem {
    fn from(a: &ConfigAnswer) -> Self {
        ConfigItem {
            pairs: a
                .pairs
                .iter()
                .map(|p| PairItem {
                    distance_bits: p.distance.to_bits(),
                    colliding: p.colliding,
                    iterations: p.iterations,
                    seconds: p.seconds,
                    witness_bits: p
                        .witnesses
                        .map(|(x, y)| [x.x, x.y, x.z, y.x, y.y, y.z].map(f64::to_bits)),
                    beyond_margin: p.beyond_margin,
                    sub_pairs: p.sub_pairs,
                })
                .collect(),
            seconds: a.seconds,
            kinematics_seconds: a.kinematics_seconds,
            transforms_seconds: a.transforms_seconds,
        }
    }
}

impl From<ConfigItem> for ConfigAnswer {
    fn from(c: ConfigItem) -> Self {
        ConfigAnswer {
            pairs: c
                .pairs
                .into_iter()
                .map(|p| PairAnswer {
                    distance: f64::from_bits(p.distance_bits),
                    colliding: p.colliding,
                    iterations: p.iterations,
                    seconds: p.seconds,
                    witnesses: p.witness_bits.map(|b| {
                        let v = b.map(f64::from_bits);
                        (DVec3::new(v[0], v[1], v[2]), DVec3::new(v[3], v[4], v[5]))
                    }),
                    beyond_margin: p.beyond_margin,
                    sub_pairs: p.sub_pairs,
                })
                .collect(),
            seconds: c.seconds,
            kinematics_seconds: c.kinematics_seconds,
            transforms_seconds: c.transforms_seconds,
        }
    }
}

/// Every configuration checked in order, warm starts restarting every
/// [`WARM_START_BLOCK`] (as every chunk does).
pub fn check_all(
    checker: &mut SelfCollision,
    model: &RobotModel,
    configs: &[Vec<f64>],
    margin: f64,
) -> Vec<ConfigAnswer> {
    check_from(checker, model, configs, 0, margin)
}

/// The configurations `configs`, the first being the run's `first`-th.
fn check_from(
    checker: &mut SelfCollision,
    model: &RobotModel,
    configs: &[Vec<f64>],
    first: usize,
    margin: f64,
) -> Vec<ConfigAnswer> {
    configs
        .iter()
        .enumerate()
        .map(|(k, q)| {
            if (first + k).is_multiple_of(WARM_START_BLOCK) {
                checker.forget_warm_starts();
            }
            checker.check_within(model, q, margin)
        })
        .collect()
}

/// Checks the configurations `start..end` alone and writes their answers as a chunk
/// file (`-`: standard output).
pub fn write(
    plan: &serde_json::Value,
    (checker, model): (&mut SelfCollision, &RobotModel),
    configs: &[Vec<f64>],
    (start, end): (usize, usize),
    margin: f64,
    out: &Path,
) -> anyhow::Result<()> {
    chunks::check_range((start, end), configs.len(), "configurations")?;
    if !start.is_multiple_of(WARM_START_BLOCK) {
        anyhow::bail!(
            "--chunk {start}..{end}: a chunk starts at a multiple of {WARM_START_BLOCK} \
             (warm starts restart there, so its answers are the whole run's)"
        );
    }
    let answers = check_from(checker, model, &configs[start..end], start, margin);
    let chunk = Chunk {
        command: "robot".into(),
        plan: plan.clone(),
        start,
        end,
        items: answers.iter().map(ConfigItem::from).collect::<Vec<_>>(),
    };
    chunks::write_chunk(&chunk, out)
}

/// The answers of the chunk files in `folder`, merged as the whole run holds them.
pub fn read(
    plan: &serde_json::Value,
    total: usize,
    folder: &Path,
) -> anyhow::Result<Vec<ConfigAnswer>> {
    let items: Vec<ConfigItem> = chunks::read_chunks("robot", plan, total, folder)?;
    Ok(items.into_iter().map(ConfigAnswer::from).collect())
}
