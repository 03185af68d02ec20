// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Compiled so that tests and scripts/deploy.ts have the OpenZeppelin ERC1967Proxy artifact.
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
