#!/usr/bin/env node
import { createNodeCliDeps } from '../node/index.js';
import { cli } from './index.js';

const io = { stdout: process.stdout, stderr: process.stderr };
process.exitCode = await cli(process.argv.slice(2), io, createNodeCliDeps());
