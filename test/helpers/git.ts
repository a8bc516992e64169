import { execFileSync, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeTree } from './temp.js';

/** git as the tests run it: no user or system configuration, a fixed identity and dates. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.invalid',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.invalid',
      GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z',
      GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z',
    },
  }).trim();
}

/** A repository made at test time with these files committed on `main`; returns its path. */
export function makeRepository(root: string, files: Record<string, string>): string {
  const path = join(root, 'upstream');
  writeTree(path, files);
  git(path, 'init', '--quiet', '--initial-branch=main');
  git(path, 'add', '-A');
  git(path, 'commit', '--quiet', '-m', 'first');
  return path;
}

/** Commits more changes (files to write, or null to delete) and returns the new commit. */
export function commitChanges(
  repository: string,
  files: Record<string, string | null>,
  message = 'change',
): string {
  for (const [path, content] of Object.entries(files)) {
    if (content === null) git(repository, 'rm', '--quiet', path);
    else writeTree(repository, { [path]: content });
  }
  git(repository, 'add', '-A');
  git(repository, 'commit', '--quiet', '-m', message);
  return git(repository, 'rev-parse', 'HEAD');
}

export interface GitHttpServer {
  /** The URL of the repository folder `name` under the served root. */
  url(name: string): string;
  /** Requests served, as "METHOD path?query". */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * Serves the repositories under `root` over git's smart HTTP protocol on 127.0.0.1, through the
 * real `git http-backend` (CGI), so tests fetch over HTTP exactly as from a hosting service.
 */
export async function serveGitHttp(root: string): Promise<GitHttpServer> {
  const execPath = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    const backend = spawn(join(execPath, 'git-http-backend'), [], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        ...(request.headers['git-protocol'] === undefined
          ? {}
          : { GIT_PROTOCOL: String(request.headers['git-protocol']) }),
        ...(request.headers['content-encoding'] === undefined
          ? {}
          : { HTTP_CONTENT_ENCODING: String(request.headers['content-encoding']) }),
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    request.pipe(backend.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    backend.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        response.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else response.setHeader(name, value);
      }
      response.writeHead(status);
      response.write(head.subarray(end + 4));
    });
    backend.on('close', () => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
