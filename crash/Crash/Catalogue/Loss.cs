namespace Crash.Catalogue;

/// <summary>The catalogue's words for what a fault may cost in acknowledged writes (IntegrationService's Storage/Loss.cs).</summary>
public static class Loss
{
    public const string Nothing = "nothing";
    /// <summary>About the last lossWindowMs of acknowledged writes.</summary>
    public const string Window = "window";
    /// <summary>Everything acknowledged since the last snapshot; a restored snapshot may also hand out again what was read since.</summary>
    public const string SinceSnapshot = "since-snapshot";
    public const string Anything = "anything";
}
