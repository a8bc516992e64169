// A scripted stand-in for a model, on 127.0.0.1 only: it speaks the Anthropic Messages API's
// stream, so the real provider code reads it, and plays the code-analyst agent's turn: find the
// skills for the task, read the review checklist and a workspace file, run a command and the
// skill's script in the sandbox, then answer from what the tools returned. It is not a model: it reasons about nothing. `npm start` uses it only
// when no real provider is usable, and says so; the loop benchmark uses it as an instant model.
import { createServer } from 'node:http';

const sse = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** A streamed message; `usage` is what message_start reports (input and cache tokens). */
export function messageEvents(blocks, stopReason, usage = { input_tokens: 0 }) {
  const events = [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_scripted',
        type: 'message',
        role: 'assistant',
        model: 'scripted',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { output_tokens: 0, ...usage },
      },
    }),
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(
        sse('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'text', text: '' },
        }),
        sse('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: block.text },
        }),
      );
    } else {
      events.push(
        sse('content_block_start', {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
        sse('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        }),
      );
    }
    events.push(sse('content_block_stop', { type: 'content_block_stop', index }));
  });
  events.push(
    sse('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 1 },
    }),
    sse('message_stop', { type: 'message_stop' }),
  );
  return events.join('');
}

/** The text of the last tool result in a request, if any. */
function lastToolResult(body) {
  const last = body.messages?.at(-1);
  if (last?.role !== 'user' || !Array.isArray(last.content)) return undefined;
  const result = last.content.find((part) => part.type === 'tool_result');
  if (result === undefined) return undefined;
  const content = Array.isArray(result.content)
    ? result.content.map((part) => part.text ?? '').join('')
    : String(result.content ?? '');
  return content;
}

/** The calls the code-analyst makes, in order, before it answers. */
const CODE_ANALYST_CALLS = [
  // Route: which skills fit the task (the router ranks them).
  { name: 'skillhost_search', input: { query: 'review code quality and find likely problems' } },
  // The preloaded code-analysis skill's checklist.
  { name: 'skillhost_read', input: { name: 'code-analysis', path: 'references/checklist.md' } },
  // A file of the workspace, with the host read tool.
  { name: 'workspace_read', input: { path: 'code-analysis/SKILL.md', limit: 5 } },
  // A command in the sandbox, with the bash tool.
  { name: 'workspace_bash', input: { command: 'ls */SKILL.md | wc -l' } },
  // The skill's own script, in the sandbox.
  {
    name: 'skillhost_run',
    input: { name: 'code-analysis', script: 'scripts/count_lines.sh', args: ['.'] },
  },
];

/** The code-analyst's scripted turn, by how many tool results the conversation holds. */
export function codeAnalystTurn(body) {
  const results = (body.messages ?? []).flatMap((message) =>
    message.role === 'user' && Array.isArray(message.content)
      ? message.content.filter((part) => part.type === 'tool_result')
      : [],
  ).length;
  const call = CODE_ANALYST_CALLS[results];
  if (call !== undefined)
    return messageEvents(
      [
        ...(results === 0
          ? [
              {
                type: 'text',
                text: 'I will find the skills for this, then follow the review checklist.\n',
              },
            ]
          : []),
        { type: 'tool_use', id: `toolu_${results + 1}`, ...call },
      ],
      'tool_use',
    );
  const output = (lastToolResult(body) ?? '').trim().split('\n').slice(0, 12).join('\n');
  return messageEvents(
    [
      {
        type: 'text',
        text: `Here is what the tools returned (a scripted model wrote this, not a real one):\n\n${output}\n\nWith a real model, each finding would name a file and a line, following the checklist.`,
      },
    ],
    'end_turn',
  );
}

/**
 * Starts the scripted model on 127.0.0.1; `turn(body)` gives each answer's events (default: the
 * code-analyst's turn). Returns its URL and a close function.
 */
export async function startScriptedModel(turn = codeAnalystTurn) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // An empty body gets the first turn.
      }
      const answer = turn(body);
      // A string is a stream of events; an object, a whole message (a request without stream).
      if (typeof answer === 'string') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(answer);
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
