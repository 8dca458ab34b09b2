-- A project's task board reads each status lane's 50 most recently changed tasks and counts the lane. Without an
-- index in that order, each lane walked the workspace's tasks by last change until 50 of that project and status
-- turned up (a project holding 2 % of 100,000 tasks: thousands of index entries a lane, 68 ms a board). With it, a
-- lane is a range of its own, read in order.
CREATE INDEX tasks_project_lane ON tasks (workspace_id, project_id, status, updated_at, id) WHERE deleted_at IS NULL;
