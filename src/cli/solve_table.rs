//! `solve`'s record tables, one layout per family.

use collidescope::solver::distance_step::DistanceStep;
use collidescope::solver::epa::EpaRecord;
use collidescope::solver::interior_point::IpRecord;
use collidescope::solver::lp::{LpEvent, LpRecord};
use collidescope::solver::toi::ToiRecord;
use collidescope::solver::trace::{Record, Trace};

pub fn print_records(trace: &Trace) {
    match trace {
        Trace::Gjk(records) => {
            distance_header();
            for r in records {
                distance_row(r, &r.step, r.step.simplex.len());
            }
        }
        Trace::FrankWolfe(records) => {
            distance_header();
            for r in records {
                distance_row(r, &r.step, r.active_set_size);
            }
        }
        Trace::Epa(t) => {
            println!(
                "{:>5}  {:<13} {:>6} {:>14} {:>14} {:>11} {:>8} {:>6} {:>6}",
                "k",
                "event",
                "faces",
                "lower (face)",
                "upper (supp.)",
                "gain",
                "removed",
                "added",
                "calls"
            );
            t.records.iter().for_each(epa_row);
        }
        Trace::TimeOfImpact(records) => {
            println!(
                "{:>5}  {:<17} {:>15} {:>15} {:>15} {:>13} {:>6}",
                "k", "event", "time", "lower", "upper", "distance", "calls"
            );
            records.iter().for_each(toi_row);
        }
        Trace::Lp(records) => {
            println!(
                "{:>5}  {:<28} {:>13}  {:<30}  {:<30}",
                "k", "step", "objective", "Σλp (on A)", "Σμq (on B)"
            );
            records.iter().for_each(lp_row);
        }
        Trace::InteriorPoint(records) => {
            println!(
                "{:>5}  {:>11} {:>11} {:>11} {:>8} {:>15} {:>15}  active",
                "k", "μ", "dual res.", "max F", "step", "lower", "upper"
            );
            records.iter().for_each(ip_row);
        }
    }
}

fn ip_row(r: &IpRecord) {
    println!(
        "{:>5}  {:>11.3e} {:>11.3e} {:>11.3e} {:>8.4} {:>15.9e} {:>15.9e}  {:?}",
        r.k, r.mu, r.dual_residual, r.primal_slack, r.step, r.lower, r.upper, r.active
    );
}

fn lp_row(r: &LpRecord) {
    let step = match &r.event {
        LpEvent::Pivot {
            entering,
            leaving,
            ties,
            plain_bland,
        } => format!(
            "{entering} in, {leaving} out ({ties} tied{})",
            if *plain_bland { ", plain Bland" } else { "" }
        ),
        LpEvent::Vertex { vertex, inside } => {
            format!(
                "vertex {vertex} {}",
                if *inside { "inside" } else { "outside" }
            )
        }
    };
    let p = |v: collidescope::DVec3| format!("({:.6}, {:.6}, {:.6})", v.x, v.y, v.z);
    println!(
        "{:>5}  {:<28} {:>13.6e}  {:<30}  {:<30}",
        r.k,
        step,
        r.objective,
        p(r.point_a),
        p(r.point_b)
    );
}

fn toi_row(r: &ToiRecord) {
    println!(
        "{:>5}  {:<17} {:>15.12} {:>15.12} {:>15.12} {:>13.6e} {:>6}",
        r.k,
        r.event_name(),
        r.time,
        r.lower,
        r.upper,
        r.distance,
        r.support_calls
    );
}

fn distance_header() {
    println!(
        "{:>5}  {:<12} {:>13} {:>11} {:>11} {:>11} {:>11} {:>4} {:>6}",
        "k", "event", "‖x_k‖", "FW gap", "r−α", "2⟨x,x−s⟩", "r²−α²", "|W|", "calls"
    );
}

fn distance_row(r: &dyn Record, s: &DistanceStep, set_size: usize) {
    println!(
        "{:>5}  {:<12} {:>13.6e} {:>11.3e} {:>11.3e} {:>11.3e} {:>11.3e} {:>4} {:>6}",
        r.k(),
        r.event_name(),
        s.x_norm,
        s.fw_gap,
        s.criteria.van_den_bergen,
        s.criteria.duality_gap,
        s.criteria.hybrid,
        set_size,
        s.support_calls
    );
}

fn epa_row(r: &EpaRecord) {
    println!(
        "{:>5}  {:<13} {:>6} {:>14.9e} {:>14.9e} {:>11.3e} {:>8} {:>6} {:>6}",
        r.k,
        r.event_name(),
        r.faces.len(),
        r.nearest_distance,
        r.support_distance,
        r.gain,
        r.faces_removed,
        r.faces_added,
        r.support_calls
    );
}
