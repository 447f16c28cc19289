using System.ComponentModel.DataAnnotations;

namespace Notifications.OperatorConsole;

/// <summary>
/// Which claim carries an operator's role, and the values of the two roles (section <c>Console:Roles</c>): an identity provider
/// names them as its administrators chose (<c>role</c>, <c>groups</c>, <c>roles</c>; <c>notifications-operator</c>, ...).
/// </summary>
internal sealed class ConsoleRoleOptions
{
    /// <summary>The claim type as the provider's ID token names it (inbound claims are not renamed).</summary>
    [Required]
    public string ClaimType { get; set; } = "role";

    /// <summary>The value that lets one read every page.</summary>
    [Required]
    public string Viewer { get; set; } = "viewer";

    /// <summary>The value that lets one read every page and run every action (an operator is a viewer too).</summary>
    [Required]
    public string Operator { get; set; } = "operator";
}
