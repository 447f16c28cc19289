using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.OperatorConsole.Authentication;

namespace Notifications.OperatorConsole.Pages;

/// <summary>
/// What the pages over an admin operation share: whether the reader is an operator (to show the forms; the rule itself is
/// <see cref="OperatorActionFilter"/>'s), the notice an action leaves for the next page, and an action run as the admin tool
/// runs it, its outcome in words and in the console's log.
/// </summary>
internal abstract class ConsolePageModel(IAuthorizationService authorization, ILogger logger) : PageModel
{
    public bool IsOperator { get; private set; }

    [TempData]
    public string? Notice { get; set; }

    public string? Error { get; protected set; }

    protected string UserName => User.Identity?.Name ?? "?";

    protected async Task ReadRoleAsync() => IsOperator = (await authorization.AuthorizeAsync(User, ConsolePolicies.Operator)).Succeeded;

    /// <summary>What <paramref name="read"/> answers; <paramref name="fallback"/>, and <see cref="Error"/> says why, if it failed.</summary>
    protected async Task<T> ReadAsync<T>(Func<Task<T>> read, T fallback)
    {
        try
        {
            return await read();
        }
        catch (AdminException ex)
        {
            Error = ex.Message;
            return fallback;
        }
    }

    /// <summary>Runs <paramref name="operation"/>; what it said, or why it did not, logged as <paramref name="action"/>.</summary>
    protected async Task<string> ActAsync(string action, Func<Task<string>> operation)
    {
        string outcome;
        try
        {
            outcome = await operation();
        }
        catch (AdminException ex)
        {
            outcome = $"Not done: {ex.Message}.";
        }

        ConsoleLog.Action(logger, UserName, action, outcome);
        return outcome;
    }
}
