-- Restricted keys (issue 17, agent trials): a connection whose keys work on the MCP surface only and/or carry
-- a lifetime budget of tool calls. The budget is taken with one conditional UPDATE per call
-- (tool_calls_used < tool_call_budget), so it holds across nodes without a read-then-write race.
ALTER TABLE connections
    ADD COLUMN mcp_only         boolean NOT NULL DEFAULT false,
    ADD COLUMN tool_call_budget integer CHECK (tool_call_budget IS NULL OR tool_call_budget >= 0),
    ADD COLUMN tool_calls_used  integer NOT NULL DEFAULT 0 CHECK (tool_calls_used >= 0);

-- A workspace provisioned for an evaluation (agent trial): shown as such to operators and owners.
ALTER TABLE workspaces ADD COLUMN trial boolean NOT NULL DEFAULT false;
