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
  const view = new EditorView({
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
        EditorView.contentAttributes.of({ 'aria-label': textarea.labels?.[0]?.textContent ?? 'SQL' }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) textarea.value = u.state.doc.toString();
        }),
      ],
    }),
  });
  textarea.hidden = true;
  textarea.after(view.dom);
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
