// The SQL page's editor, bundled by bin/build-console.js (CodeMirror 6): highlighting of the archive's
// dialect and completion of its table and column names. It edits the page's own <textarea>, which stays
// the form's field: the page runs without this module (it is loaded with import(), and a failure leaves
// the textarea as it is).
import { autocompletion, completionKeymap, closeBrackets } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, placeholder } from '@codemirror/view';

/** The page's stylesheet does not reach into the shadow root: the editor's own look. */
const THEME = EditorView.theme({
  '&': { background: '#fff', border: '1px solid #c9ced4', fontSize: '13px' },
  '&.cm-focused': { outline: '2px solid #0969da' },
  '.cm-content, .cm-gutter': { minHeight: '10em' },
  '.cm-scroller': { fontFamily: 'ui-monospace, monospace' },
});

/**
 * Puts an editor in place of `textarea` (hidden, kept equal to the editor's text) with the completion
 * of `relations` (GET /api/v1/schema's: name and columns). Ctrl/Cmd-Enter submits the form. Tab is left
 * to the browser, so the keyboard can leave the editor.
 */
export function sqlEditor(textarea, relations) {
  const schema = Object.fromEntries(relations.map((r) => [r.name, r.columns.map((c) => c.name)]));
  const submit = () => {
    textarea.form?.requestSubmit();
    return true;
  };
  // In a shadow root: CodeMirror then adds its styles as a constructed stylesheet (adoptedStyleSheets),
  // which the console's CSP (style-src 'self', no 'unsafe-inline') allows; in the document itself it
  // would add a <style> element, which the CSP blocks (docs/CONSOLE.md).
  const host = document.createElement('div');
  host.className = 'sql-editor';
  const root = host.attachShadow({ mode: 'open' });
  const view = new EditorView({
    root,
    parent: root,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(),
        history(),
        closeBrackets(),
        bracketMatching(),
        syntaxHighlighting(defaultHighlightStyle),
        // DuckDB's dialect is PostgreSQL's as far as highlighting goes.
        sql({ dialect: PostgreSQL, schema, upperCaseKeywords: true }),
        autocompletion(),
        placeholder(textarea.placeholder || 'SELECT …'),
        keymap.of([
          { key: 'Mod-Enter', run: submit },
          ...completionKeymap,
          ...historyKeymap,
          ...defaultKeymap,
        ]),
        THEME,
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': textarea.labels?.[0]?.textContent ?? 'SQL' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) textarea.value = u.state.doc.toString();
        }),
      ],
    }),
  });
  textarea.hidden = true;
  textarea.after(host);
  // The label points at the editor now.
  for (const label of textarea.labels ?? []) label.addEventListener('click', () => view.focus());
  return {
    view,
    /** Replaces the text (the page sets it from the URL). */
    set(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
  };
}
