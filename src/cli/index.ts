#!/usr/bin/env node
/**
 * Entry point of the command line (package bin, and `npm run cli -- COMMAND`).
 */
import { runCli } from './run.js';

process.exitCode = await runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
