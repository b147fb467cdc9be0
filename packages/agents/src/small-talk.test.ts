import { describe, expect, it } from 'vitest';
import { detectSmallTalk } from './small-talk.js';

describe('detectSmallTalk', () => {
  it.each([
    'hi',
    'Hello there!',
    'hey, how are you?',
    'Good morning',
    'Bonjour',
    'Salut !',
    'Hola, ¿qué tal?',
    'Hallo',
    'Guten Tag',
    'ciao',
  ])('%j is a greeting', (message) => {
    expect(detectSmallTalk(message)).toBe('greeting');
  });

  it.each([
    'bye',
    'Goodbye!',
    "Thanks, that's all",
    "That's all I needed, thank you!",
    'ok thanks bye',
    'Au revoir',
    'Merci, au revoir !',
    'Adiós',
    'Gracias, eso es todo',
    'Tschüss',
    'Tschüß',
    "Danke, das war's",
  ])('%j is a farewell', (message) => {
    expect(detectSmallTalk(message)).toBe('farewell');
  });

  it.each(['thanks', 'Thank you very much for your help!', 'merci beaucoup', 'Vielen Dank'])('%j is thanks', (message) => {
    expect(detectSmallTalk(message)).toBe('thanks');
  });

  it.each([
    'Thanks, and what about shipping?',
    'Hi, do you ship to Canada?',
    'bye bye shipping fees?',
    'Hello, I want to return my boots',
    'ok',
    '',
    'Is it good?',
  ])('%j is not small talk', (message) => {
    expect(detectSmallTalk(message)).toBeNull();
  });

  it('lets the widget name accompany a greeting', () => {
    expect(detectSmallTalk('Hi Northwind!', ['Northwind Outfitters'])).toBe('greeting');
    expect(detectSmallTalk('Hi Northwind!')).toBeNull();
  });
});
