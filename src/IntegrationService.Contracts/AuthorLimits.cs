namespace IntegrationService.Authors;

/// <summary>Field limits shared by validation and the database schema.</summary>
public static class AuthorLimits
{
    public const int MaxStringLength = 256;
    public const int MaxPageSize = 1000;
}
