//! Templates: soft deletion.

use super::{write_tx, DbError};
use rusqlite::{params, Connection, OptionalExtension};

/// Why a template was not deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeleteTemplateRefusal {
    /// No such template, or it is already deleted.
    NotFound { template_id: i64 },
    /// It belongs to another user.
    NotYours { template_id: i64 },
    /// `users` other users still have an active relationship to it.
    InUse { template_id: i64, users: i64 },
}

/// Soft-deletes template `template_id` of `owner_id`, unless other users still have an
/// active relationship to it. One IMMEDIATE transaction: the checks and the update see
/// the same state.
pub fn delete_template(
    conn: &mut Connection,
    owner_id: i64,
    template_id: i64,
    now: f64,
) -> Result<Result<(), DeleteTemplateRefusal>, DbError> {
    let tx = write_tx(conn)?;
    let row: Option<(i64, Option<f64>)> = tx
        .query_row(
            "SELECT owner_id, deleted_at FROM templates WHERE id = ?1",
            [template_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    match row {
        None | Some((_, Some(_))) => {
            return Ok(Err(DeleteTemplateRefusal::NotFound { template_id }))
        }
        Some((owner, None)) if owner != owner_id => {
            return Ok(Err(DeleteTemplateRefusal::NotYours { template_id }))
        }
        Some(_) => {}
    }
    let users: i64 = tx.query_row(
        "SELECT COUNT(DISTINCT user_id) FROM template_usage
         WHERE template_id = ?1 AND active = 1 AND user_id != ?2",
        params![template_id, owner_id],
        |r| r.get(0),
    )?;
    if users > 0 {
        return Ok(Err(DeleteTemplateRefusal::InUse { template_id, users }));
    }
    tx.execute(
        "UPDATE templates SET deleted_at = ?1 WHERE id = ?2",
        params![now, template_id],
    )?;
    tx.commit()?;
    Ok(Ok(()))
}
