using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Filters;

namespace Notifications.OperatorConsole.Authentication;

/// <summary>
/// Every action is the operator's: a page handler for anything but GET or HEAD runs only for the <see cref="ConsolePolicies.Operator"/>
/// policy, else 403. One rule for all pages, so a new page's action cannot be left open to viewers by forgetting an attribute.
/// The sign-in pages (<see cref="AllowAnonymousAttribute"/>) are the exception: signing in and out is not an operation. It runs
/// after the antiforgery check (an authorization filter), so a forged post is 400 whoever sends it.
/// </summary>
internal sealed class OperatorActionFilter : IAsyncPageFilter
{
    public Task OnPageHandlerSelectionAsync(PageHandlerSelectedContext context) => Task.CompletedTask;

    public async Task OnPageHandlerExecutionAsync(PageHandlerExecutingContext context, PageHandlerExecutionDelegate next)
    {
        var http = context.HttpContext;
        if (HttpMethods.IsGet(http.Request.Method) || HttpMethods.IsHead(http.Request.Method)
            || context.ActionDescriptor.EndpointMetadata.OfType<IAllowAnonymous>().Any())
        {
            await next();
            return;
        }

        var authorization = http.RequestServices.GetRequiredService<IAuthorizationService>();
        if (!(await authorization.AuthorizeAsync(http.User, ConsolePolicies.Operator)).Succeeded)
        {
            context.Result = new ForbidResult();
            return;
        }

        await next();
    }
}
