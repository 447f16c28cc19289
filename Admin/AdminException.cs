namespace Notifications.Admin;

/// <summary>A failure with a message for the operator and the exit code it ends with.</summary>
internal sealed class AdminException(string message, int exitCode, Exception? inner = null) : Exception(message, inner)
{
    public int ExitCode { get; } = exitCode;
}
