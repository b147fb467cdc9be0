/**
 * The launcher's accessible names ("open", "close"), the only strings the loader needs before the panel (and its
 * full string tables in `i18n.ts`, which a test keeps equal to these) has loaded.
 */
const LABELS: Record<string, [string, string]> = {
  en: ['Open chat', 'Close chat'],
  fr: ['Ouvrir la discussion', 'Fermer la discussion'],
  de: ['Chat öffnen', 'Chat schließen'],
  es: ['Abrir el chat', 'Cerrar el chat'],
};

export function launcherLabels(language: string | undefined): [string, string] {
  return LABELS[(language ?? '').split('-')[0]!.toLowerCase()] ?? LABELS.en!;
}
