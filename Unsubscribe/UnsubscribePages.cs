using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace Notifications.Unsubscribe;

/// <summary>
/// Renders the pages (Razor components in Pages/) to HTML with ASP.NET Core's <see cref="HtmlRenderer"/>: every value
/// goes through its encoder, nothing is concatenated into markup. Sent with headers that keep the token's URL out of
/// caches, referrers and frames.
/// </summary>
internal sealed class UnsubscribePages(IServiceProvider services, ILoggerFactory loggers) : IAsyncDisposable
{
    private readonly HtmlRenderer _renderer = new(services, loggers);

    public async Task WriteAsync<TPage>(HttpContext context, int status, Dictionary<string, object?> parameters)
        where TPage : IComponent
    {
        string html = await RenderAsync<TPage>(parameters);
        var response = context.Response;
        response.StatusCode = status;
        response.ContentType = "text/html; charset=utf-8";
        var headers = response.Headers;
        headers.CacheControl = "no-store";
        headers["Referrer-Policy"] = "no-referrer";
        headers.XContentTypeOptions = "nosniff";
        headers.XFrameOptions = "DENY";
        headers.ContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
        headers["X-Robots-Tag"] = "noindex";
        await response.WriteAsync(html, context.RequestAborted);
    }

    public Task<string> RenderAsync<TPage>(Dictionary<string, object?> parameters)
        where TPage : IComponent =>
        _renderer.Dispatcher.InvokeAsync(async () => (await _renderer.RenderComponentAsync<TPage>(ParameterView.FromDictionary(parameters))).ToHtmlString());

    /// <summary>The address as the pages show it: its first character and its domain (<c>r•••@example.com</c>), so a forwarded link shows little.</summary>
    public static string Mask(string address)
    {
        int at = address.LastIndexOf('@');
        return at <= 0 ? "•••" : $"{address[0]}•••{address[at..]}";
    }

    public ValueTask DisposeAsync() => _renderer.DisposeAsync();
}
