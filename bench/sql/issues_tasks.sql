-- GET /api/v1/issues?kind=task&project_id=..&limit=50 (IssueService.list: IssueRepository.count, list, withLabels).
-- :ids is the text form of the page's task ids (the page is fixed, so the harness reads them once).
BEGIN;
SELECT set_config('lnp.workspace_id', :ws, true), set_config('role', 'lnp_tenant', true);
SELECT count(*) FROM issues.tasks i WHERE i.workspace_id = :ws AND i.deleted_at IS NULL AND i.project_id = :project;
SELECT id, title, description, status, priority, project_id, assignee_id, due_at, start_date, parent_id, cycle_id,
       epic_id, estimate_hours, created_by, created_at, updated_at
  FROM issues.tasks i WHERE i.workspace_id = :ws AND i.deleted_at IS NULL AND i.project_id = :project
 ORDER BY created_at, id LIMIT 50 OFFSET 0;
SELECT x.task_id AS issue_id, l.id, l.name, l.color FROM issues.task_labels x JOIN issues.labels l ON l.id = x.label_id
 WHERE x.workspace_id = :ws AND x.task_id = ANY(:ids) ORDER BY lower(l.name);
COMMIT;
