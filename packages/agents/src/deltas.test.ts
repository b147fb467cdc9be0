import { describe, expect, it } from 'vitest';
import { DeltaWriter, sentencePieces } from './deltas.js';

describe('sentencePieces', () => {
  it('cuts after sentences and line breaks, each piece keeping the white space after it', () => {
    expect(sentencePieces('Hi! We ship. Really?\n\n- Tents\n- Stoves')).toEqual(['Hi! ', 'We ship. ', 'Really?\n\n', '- Tents\n', '- Stoves']);
  });

  it('keeps emphasis and quotes closing a sentence with it', () => {
    expect(sentencePieces('It is **free.** Then "done." End')).toEqual(['It is **free.** ', 'Then "done." ', 'End']);
  });

  it('does not cut inside numbers, prices or URLs', () => {
    expect(sentencePieces('It costs $19.95 via https://x.example/a.b now.')).toEqual(['It costs $19.95 via https://x.example/a.b now.']);
  });

  it('loses no character, whatever the text', () => {
    const samples = ['', ' ', 'a', 'One. ', '\n\nLead.\n', 'a.  b!\t c?\r\n d…  e', '1. First\n2. Second'];
    for (const sample of samples) expect(sentencePieces(sample).join('')).toBe(sample);
    expect(sentencePieces('').length).toBe(0);
  });
});

describe('DeltaWriter', () => {
  function collect(): { writer: DeltaWriter; sent: string[] } {
    const sent: string[] = [];
    return { writer: new DeltaWriter((text) => sent.push(text)), sent };
  }

  it('drops leading white space and holds trailing white space until text follows', () => {
    const { writer, sent } = collect();
    for (const piece of ['\n ', ' Hello', ' ', '', 'world', '.\n\n']) writer.write(piece);
    expect(sent).toEqual(['Hello', ' world', '.']);
    expect(writer.text).toBe('Hello world.');
  });

  it('joins the texts of two steps with a blank line, and skips steps without text', () => {
    const { writer, sent } = collect();
    writer.write('Let me check. ');
    writer.endStep();
    writer.endStep();
    writer.write('  ');
    writer.write('Yes.');
    expect(sent).toEqual(['Let me check.', '\n\nYes.']);
    expect(writer.text).toBe('Let me check.\n\nYes.');
  });

  it('forwards a stand-in text whole', () => {
    const { writer, sent } = collect();
    writer.writeWhole('Here is the form.');
    expect(sent).toEqual(['Here is the form.']);
    expect(writer.text).toBe('Here is the form.');
  });
});
