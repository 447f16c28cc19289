namespace Notifications.Admin;

/// <summary>The admin tool's exit codes (README: "Admin command line").</summary>
internal static class ExitCodes
{
    public const int Success = 0;

    /// <summary>The operation failed or was declined at the confirmation.</summary>
    public const int Failed = 1;

    /// <summary>Bad arguments or configuration.</summary>
    public const int Usage = 2;

    /// <summary>RabbitMQ or the database could not be reached.</summary>
    public const int Unavailable = 3;
}
