namespace IntegrationService.Storage;

/// <summary>The <c>storage</c> query parameter names no architecture serving the entity; a 400.</summary>
public sealed class UnknownStorageException(string? requested, string entity, IReadOnlyList<string> validNames)
    : Exception($"Unknown storage '{requested}' for {entity}. Valid names: {string.Join(", ", validNames)}.")
{
    public IReadOnlyList<string> ValidNames { get; } = validNames;
}
