namespace Notifications.OperatorConsole.Authentication;

/// <summary>The two authorization policies: every page needs <see cref="Viewer"/>, every action (a POST) <see cref="Operator"/>.</summary>
internal static class ConsolePolicies
{
    /// <summary>Reads pages: the viewer or the operator role.</summary>
    public const string Viewer = "viewer";

    /// <summary>Runs actions: the operator role.</summary>
    public const string Operator = "operator";
}
