namespace Crash;

/// <summary>Whether the read-back found a value for a key.</summary>
public enum ReadState
{
    Found,
    /// <summary>The API says the key does not exist (an author's 404).</summary>
    Missing,
    /// <summary>No read succeeded, even after retries.</summary>
    Unreadable,
}

/// <summary>
/// What the read-back found for a key, in the same canonical form as <see cref="WriteAttempt.Value"/>.
/// An item without locations is <see cref="ReadState.Found"/> with the <see cref="Empty"/> value.
/// </summary>
public readonly record struct ReadValue(ReadState State, string? Value)
{
    /// <summary>The empty value: an item with no locations.</summary>
    public const string Empty = "";

    public static ReadValue Missing => new(ReadState.Missing, null);
    public static ReadValue Unreadable => new(ReadState.Unreadable, null);
    public static ReadValue Of(string value) => new(ReadState.Found, value);

    /// <summary>For examples in the result: the value, or (empty), (missing), (unreadable).</summary>
    public string Describe() => State switch
    {
        ReadState.Found => Value is Empty ? "(empty)" : Value!,
        ReadState.Missing => "(missing)",
        _ => "(unreadable)",
    };
}
