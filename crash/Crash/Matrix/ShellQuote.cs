namespace Crash.Matrix;

/// <summary>Quotes a word for <c>/bin/bash -c</c>.</summary>
public static class ShellQuote
{
    public static string Word(string word) =>
        word.Length > 0 && word.All(c => char.IsAsciiLetterOrDigit(c) || c is '/' or '.' or '-' or '_' or '=' or ',' or ':')
            ? word
            : "'" + word.Replace("'", "'\\''", StringComparison.Ordinal) + "'";
}
