/** Client install snippets for the remote MCP server (served by /mcp-discovery, repeated in docs/mcp.md). */
export const INSTALL_CLIENTS = ["claude-desktop", "claude-code", "cursor", "codex"] as const;

export function installSnippets(mcpUrl: string): Record<(typeof INSTALL_CLIENTS)[number], { file: string; snippet: string }> {
  return {
    "claude-desktop": {
      file: "claude_desktop_config.json",
      snippet: JSON.stringify(
        {
          mcpServers: {
            "prediction-market": {
              command: "npx",
              args: ["-y", "mcp-remote", mcpUrl, "--header", "Authorization: Bearer ${SVC_API_KEY}"],
              env: { SVC_API_KEY: "<your key>" },
            },
          },
        },
        null,
        2,
      ),
    },
    "claude-code": {
      file: "(shell)",
      snippet: `claude mcp add --transport http prediction-market ${mcpUrl} --header "Authorization: Bearer $SVC_API_KEY"`,
    },
    cursor: {
      file: "~/.cursor/mcp.json",
      snippet: JSON.stringify({ mcpServers: { "prediction-market": { url: mcpUrl, headers: { Authorization: "Bearer ${env:SVC_API_KEY}" } } } }, null, 2),
    },
    codex: {
      file: "~/.codex/config.toml",
      snippet: `[mcp_servers.prediction-market]\nurl = "${mcpUrl}"\nbearer_token_env_var = "SVC_API_KEY"`,
    },
  };
}
