import { mount } from 'svelte';
import '../../../../src-renderer/styles/global.css';
import ApprovalDialogHarness from './ApprovalDialogHarness.svelte';

Object.assign(window, { harness: mount(ApprovalDialogHarness, { target: document.getElementById('app')! }) });
