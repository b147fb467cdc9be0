import { createInterface } from 'node:readline';
import { views, type AdminApi } from '@svc/core';

/**
 * `svc operators create|list`. The password is read from standard input (piped, or typed at a prompt that does not
 * echo), never from a flag: flags end up in shell history and in every user's `ps` listing.
 */
export interface OperatorCommandValues {
  account?: string | undefined;
  email?: string | undefined;
  name?: string | undefined;
  role?: string | undefined;
  /** Filled from standard input by the CLI, never from the command line. */
  password?: string | undefined;
}

export async function runOperatorCommand(
  command: 'create' | 'list',
  values: OperatorCommandValues,
  admin: Pick<AdminApi, 'createOperator' | 'listOperators'>,
): Promise<{ json: unknown; text: string }> {
  const account = values.account ?? '';
  if (command === 'list') {
    const operators = (await admin.listOperators(account)).map(views.operator);
    return { json: operators, text: operators.length ? operators.map((o) => `${o.id}  ${o.email}  ${o.role}  ${o.name}`).join('\n') : 'No operators.' };
  }
  const operator = views.operator(
    await admin.createOperator(account, {
      email: values.email,
      password: values.password,
      ...(values.name === undefined ? {} : { name: values.name }),
      ...(values.role === undefined ? {} : { role: values.role }),
    }),
  );
  return { json: operator, text: `Created ${operator.role} ${operator.email} (${operator.id}) in account ${operator.accountId}.` };
}

/** The password: the first line piped to standard input, or typed at a prompt on a terminal (not echoed). */
export async function readPasswordFromStdin(input: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) text += chunk.toString();
    return text.split(/\r?\n/)[0] ?? '';
  }
  process.stderr.write('Password (not shown): ');
  const rl = createInterface({ input, output: process.stderr, terminal: true });
  // Readline echoes what is typed through _writeToOutput; dropping it keeps the password off the screen.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined;
  const line = await new Promise<string>((resolve) => rl.once('line', resolve));
  rl.close();
  process.stderr.write('\n');
  return line;
}
