-- GET /api/v1/issues?kind=task&project_id=..&limit=50 (IssueService.page: the page with each task's labels
-- aggregated and the filter's count selected by the same statement). :ids is not used any more (the labels had
-- their own query).
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
SELECT id, title, description, status, priority, project_id, assignee_id, due_at, start_date, parent_id, cycle_id,
       epic_id, estimate_hours, created_by, created_at, updated_at,
       (SELECT json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) ORDER BY lower(l.name))
          FROM issues.task_labels x JOIN issues.labels l ON l.id = x.label_id
         WHERE x.workspace_id = i.workspace_id AND x.task_id = i.id) AS labels,
       (SELECT count(*) FROM issues.tasks i WHERE i.workspace_id = :ws AND i.deleted_at IS NULL
           AND i.project_id = :project) AS page_total
  FROM issues.tasks i WHERE i.workspace_id = :ws AND i.deleted_at IS NULL AND i.project_id = :project
 ORDER BY i.created_at, i.id LIMIT 50 OFFSET 0;
COMMIT;
